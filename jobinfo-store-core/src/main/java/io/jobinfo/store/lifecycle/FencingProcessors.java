package io.jobinfo.store.lifecycle;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.partition.PartitionService;
import java.io.IOException;
import java.util.Map;

/** The entry processors of {@link LeaderFence}; registered in {@link JobInfoSerialization}. */
public final class FencingProcessors {

    private FencingProcessors() {
    }

    static final int POINTER_OP_CLASS_ID = 3;
    static final int BACKUP_APPLY_CLASS_ID = 4;
    static final int RAISE_FENCE_CLASS_ID = 5;
    static final int NEXT_EPOCH_CLASS_ID = 6;
    static final int REJECTED_CLASS_ID = 7;

    static final byte PUT_IF_ABSENT = 1;
    static final byte REMOVE = 2;
    /** Replaces a registered value (not a marker) with the {@link DeleteMarker} carried as value. */
    static final byte CLAIM = 3;

    /**
     * A pointer write, removal or delete claim on the job's own key, refused if the writer's epoch is older than the
     * fence of the key's partition. Returns the previous value (as {@code putIfAbsent} / {@code remove} do), or
     * {@link Rejected}.
     */
    static final class FencedPointerOp implements EntryProcessor<Long, Object, Object>, JobInfoSerializable,
            HazelcastInstanceAware {
        private static final long serialVersionUID = 1L;

        private String fenceMapName;
        private long fenceKey;
        private long writerEpoch;
        /** What to do if the fence allows it; also what the backups replay. */
        private BackupApply change = new BackupApply();
        private transient HazelcastInstance hazelcast;
        private transient boolean changed;

        public FencedPointerOp() {
        }

        FencedPointerOp(String fenceMapName, long fenceKey, long writerEpoch, byte op, Object value) {
            this.fenceMapName = fenceMapName;
            this.fenceKey = fenceKey;
            this.writerEpoch = writerEpoch;
            this.change = new BackupApply(op, value);
        }

        @Override
        public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
            this.hazelcast = hazelcastInstance;
        }

        @Override
        public Object process(Map.Entry<Long, Object> entry) {
            changed = false;
            PartitionService partitions = hazelcast.getPartitionService();
            if (partitions.getPartition(entry.getKey()).getPartitionId()
                    != partitions.getPartition(fenceKey).getPartitionId()) {
                throw new IllegalStateException("the fence key " + fenceKey + " is not in the partition of job "
                        + entry.getKey() + "; the job map and its fence map must use default partitioning");
            }
            // Same partition as this entry: a local read run directly on this partition thread, so no other
            // operation of the partition (a fence raise included) can interleave with this check and the change.
            Long fence = hazelcast.<Long, Long>getMap(fenceMapName).get(fenceKey);
            long current = fence == null ? 0 : fence;
            if (writerEpoch < current) {
                return new Rejected(current);
            }
            Object previous = entry.getValue();
            byte op = change.op;
            if (op == PUT_IF_ABSENT ? previous == null
                    : op == CLAIM ? previous != null && !(previous instanceof DeleteMarker)
                    : previous != null) {
                change.process(entry);
                changed = true;
            }
            return previous;
        }

        @Override
        public EntryProcessor<Long, Object, Object> getBackupProcessor() {
            // Replay exactly what the primary did; nothing if it changed nothing.
            return changed ? change : null;
        }

        @Override
        public int getClassId() {
            return POINTER_OP_CLASS_ID;
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeString(fenceMapName);
            out.writeLong(fenceKey);
            out.writeLong(writerEpoch);
            change.writeData(out); // op, then value
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            fenceMapName = in.readString();
            fenceKey = in.readLong();
            writerEpoch = in.readLong();
            change.readData(in);
        }
    }

    /**
     * One change of an entry (put the value, or remove it): what a {@link FencedPointerOp} applies once its fence
     * allows it, and its backup side, which applies the primary's decision without checking again.
     */
    static final class BackupApply implements EntryProcessor<Long, Object, Object>, JobInfoSerializable {
        private static final long serialVersionUID = 1L;

        private byte op;
        private Object value;

        public BackupApply() {
        }

        BackupApply(byte op, Object value) {
            this.op = op;
            this.value = value;
        }

        @Override
        public Object process(Map.Entry<Long, Object> entry) {
            entry.setValue(op == REMOVE ? null : value);
            return null;
        }

        @Override
        public int getClassId() {
            return BACKUP_APPLY_CLASS_ID;
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeByte(op);
            out.writeObject(value);
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            op = in.readByte();
            value = in.readObject();
        }
    }

    /**
     * A processor or result whose whole state is one {@code long}, on the wire as just that {@code long}: the epoch of
     * a {@link RaiseFence}, the floor of a {@link NextEpoch}, the fence of a {@link Rejected}.
     */
    abstract static class OneLong implements JobInfoSerializable {
        private static final long serialVersionUID = 1L;

        long value;

        /** @param value the state, or 0 for an instance the factory creates for {@link #readData} */
        OneLong(long value) {
            this.value = value;
        }

        @Override
        public final void writeData(ObjectDataOutput out) throws IOException {
            out.writeLong(value);
        }

        @Override
        public final void readData(ObjectDataInput in) throws IOException {
            value = in.readLong();
        }
    }

    /**
     * Sets a fence to {@code max(current, epoch)} and returns the result; idempotent, so also its own backup. Its
     * value is the epoch.
     */
    static final class RaiseFence extends OneLong implements EntryProcessor<Long, Long, Long> {
        private static final long serialVersionUID = 1L;

        RaiseFence(long epoch) {
            super(epoch);
        }

        @Override
        public Long process(Map.Entry<Long, Long> entry) {
            Long current = entry.getValue();
            long raised = current == null ? value : Math.max(current, value);
            if (current == null || raised != current) {
                entry.setValue(raised);
            }
            return raised;
        }

        @Override
        public int getClassId() {
            return RAISE_FENCE_CLASS_ID;
        }
    }

    /**
     * Sets the epoch counter to {@code max(counter, floor) + 1} and returns it (the new epoch); the backup is raised
     * to the same value. The floor (its value) is the highest fence the caller saw, so a counter whose entry was lost
     * restarts above every fence.
     */
    static final class NextEpoch extends OneLong implements EntryProcessor<Long, Long, Long> {
        private static final long serialVersionUID = 1L;

        private transient long issued;

        NextEpoch(long floor) {
            super(floor);
        }

        @Override
        public Long process(Map.Entry<Long, Long> entry) {
            Long current = entry.getValue();
            issued = Math.max(current == null ? 0 : current, value) + 1;
            entry.setValue(issued);
            return issued;
        }

        @Override
        public EntryProcessor<Long, Long, Long> getBackupProcessor() {
            return new RaiseFence(issued);
        }

        @Override
        public int getClassId() {
            return NEXT_EPOCH_CLASS_ID;
        }
    }

    /** Result of a refused {@link FencedPointerOp}: the fence that refused it. */
    public static final class Rejected extends OneLong {
        private static final long serialVersionUID = 1L;

        Rejected(long fence) {
            super(fence);
        }

        public long fence() {
            return value;
        }

        @Override
        public int getClassId() {
            return REJECTED_CLASS_ID;
        }
    }
}
