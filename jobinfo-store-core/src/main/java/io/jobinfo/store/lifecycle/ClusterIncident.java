package io.jobinfo.store.lifecycle;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.Objects;

/**
 * Something a member saw that may have lost entries of the job map: a partition whose every replica was lost, or a
 * split brain that healed (a merge, after which Hazelcast's merge policy decided which entries survived). Written by
 * {@link PartitionLossMonitor} into the {@link IncidentLog}; read by GC (which holds its deletes) and by operators.
 * Immutable once deserialized.
 */
public final class ClusterIncident implements JobInfoSerializable {

    /** What happened. */
    public enum Kind {
        /** Every replica of a partition of a map was lost; its entries are gone. */
        PARTITION_LOST,
        /** This member's cluster merged into another after a split brain; entries may have been overwritten. */
        MERGED,
        /** Not an incident: the operator's acknowledgement of every incident detected up to its time. */
        ACKNOWLEDGED
    }

    private static final int MAX_TEXT = 256;

    private Kind kind;
    private String mapName;
    private int partitionId;
    private long detectedAtMillis;
    private String member;

    /** For Hazelcast deserialization only. */
    public ClusterIncident() {
    }

    /**
     * @param mapName     the map that lost a partition (the job map or its fencing maps); empty for a merge
     * @param partitionId the lost partition, {@code -1} when unknown or every partition (a merge)
     * @param member      the member that saw it (address), or the operator for an acknowledgement
     */
    public ClusterIncident(Kind kind, String mapName, int partitionId, Instant detectedAt, String member) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.mapName = clip(Objects.requireNonNull(mapName, "mapName"));
        this.partitionId = partitionId;
        this.detectedAtMillis = detectedAt.toEpochMilli();
        this.member = clip(Objects.requireNonNull(member, "member"));
    }

    private static String clip(String s) {
        return s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT);
    }

    public Kind kind() {
        return kind;
    }

    public String mapName() {
        return mapName;
    }

    /** The lost partition, or {@code -1} (unknown, or every partition: a merge). */
    public int partitionId() {
        return partitionId;
    }

    public Instant detectedAt() {
        return Instant.ofEpochMilli(detectedAtMillis);
    }

    public String member() {
        return member;
    }

    /** One line for operators. */
    public String describe() {
        switch (kind) {
            case PARTITION_LOST:
                return "partition " + partitionId + " of map " + mapName + " lost (every replica), seen by " + member
                        + " at " + detectedAt();
            case MERGED:
                return "split brain healed: " + member + " merged into the cluster at " + detectedAt()
                        + " (the merge policy may have dropped entries)";
            default:
                return "acknowledged by " + member + " at " + detectedAt();
        }
    }

    @Override
    public int getClassId() {
        return JobInfoSerialization.INCIDENT_CLASS_ID;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeByte(kind.ordinal());
        out.writeString(mapName);
        out.writeInt(partitionId);
        out.writeLong(detectedAtMillis);
        out.writeString(member);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int k = in.readByte();
        if (k < 0 || k >= Kind.values().length) {
            throw new IOException("unknown cluster incident kind " + k + "; a newer jobinfo-store wrote it");
        }
        kind = Kind.values()[k];
        mapName = in.readString();
        partitionId = in.readInt();
        detectedAtMillis = in.readLong();
        member = in.readString();
        if (mapName == null || member == null) {
            throw new IOException("incomplete cluster incident record");
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ClusterIncident)) {
            return false;
        }
        ClusterIncident c = (ClusterIncident) o;
        return kind == c.kind && mapName.equals(c.mapName) && partitionId == c.partitionId
                && detectedAtMillis == c.detectedAtMillis && member.equals(c.member);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, mapName, partitionId, detectedAtMillis);
    }

    @Override
    public String toString() {
        return "ClusterIncident{" + describe() + '}';
    }
}
