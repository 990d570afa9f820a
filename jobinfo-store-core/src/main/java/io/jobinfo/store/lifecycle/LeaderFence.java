package io.jobinfo.store.lifecycle;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.PartitionService;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Leader fencing of a job map without Hazelcast's CP subsystem.
 *
 * <p>Two small maps sit beside the job map {@code M}:
 * <ul>
 *   <li>{@code M.epoch}: one entry, a counter. {@link #nextEpoch()} increments it in an entry processor, so every
 *   takeover gets a unique, increasing epoch.</li>
 *   <li>{@code M.fence}: one entry per partition, keyed by a {@code Long} that Hazelcast places in that partition
 *   (the smallest non-negative one; the same on every member and client, since it only depends on the partition
 *   count and the key's serialized form). Its value is the highest epoch that has taken over.</li>
 * </ul>
 *
 * <p>A takeover takes the next epoch, then raises the fence of every partition to it. Every pointer write and
 * removal of a fencing registry is an entry processor on the job's key carrying the writer's epoch; it reads the
 * fence of its own partition (a local read on the partition thread, in the same operation) and refuses the change if
 * the writer's epoch is older. Check and change are therefore atomic per partition: once the fence of a partition
 * holds epoch {@code E}, no change by a writer with an epoch below {@code E} can land on any job of that partition.
 *
 * <p>The next epoch always starts above every fence still standing ({@link #nextEpoch()} reads them first), so the
 * loss of the epoch counter's entry (its partition lost with all replicas) does not restart epochs at 1 below the
 * fences of a master that was deposed: the new master is still above every fence.
 */
final class LeaderFence {

    static final long EPOCH_KEY = 0L;

    private final IMap<Long, Long> epochMap;
    private final IMap<Long, Long> fenceMap;
    private final PartitionService partitions;
    private final long[] fenceKeyOfPartition;

    LeaderFence(HazelcastInstance hazelcast, String jobMapName) {
        this.epochMap = hazelcast.getMap(jobMapName + ".epoch");
        this.fenceMap = hazelcast.getMap(jobMapName + ".fence");
        this.partitions = hazelcast.getPartitionService();
        int count = partitions.getPartitions().size();
        long[] keys = new long[count];
        boolean[] found = new boolean[count];
        int missing = count;
        for (long k = 0; missing > 0; k++) {
            int p = partitions.getPartition(k).getPartitionId();
            if (!found[p]) {
                found[p] = true;
                keys[p] = k;
                missing--;
            }
        }
        this.fenceKeyOfPartition = keys;
    }

    String fenceMapName() {
        return fenceMap.getName();
    }

    /** The key of the fence guarding {@code jobId}'s partition. */
    long fenceKeyFor(long jobId) {
        return fenceKeyOfPartition[partitions.getPartition(jobId).getPartitionId()];
    }

    /**
     * A new, unique epoch, greater than every epoch handed out before and greater than every fence: the counter
     * is raised to the highest fence first, which matters when the counter's entry was lost.
     */
    long nextEpoch() {
        return epochMap.executeOnKey(EPOCH_KEY, new FencingProcessors.NextEpoch(highestFence()));
    }

    /** The highest fence of any partition now (0 if none is set). */
    long highestFence() {
        Set<Long> keys = new LinkedHashSet<>();
        for (long k : fenceKeyOfPartition) {
            keys.add(k);
        }
        long highest = 0;
        for (Long v : fenceMap.getAll(keys).values()) {
            if (v != null) {
                highest = Math.max(highest, v);
            }
        }
        return highest;
    }

    /** The epoch counter now (0 if its entry does not exist: never taken, or lost). */
    long currentEpochCounter() {
        Long v = epochMap.get(EPOCH_KEY);
        return v == null ? 0 : v;
    }

    /**
     * Raises every partition's fence to at least {@code epoch}.
     *
     * @return the highest fence found afterwards (greater than {@code epoch} if a newer master has taken over)
     */
    long raiseAll(long epoch) {
        Set<Long> keys = new LinkedHashSet<>();
        for (long k : fenceKeyOfPartition) {
            keys.add(k);
        }
        Map<Long, Long> results = fenceMap.executeOnKeys(keys, new FencingProcessors.RaiseFence(epoch));
        long highest = epoch;
        for (Long v : results.values()) {
            highest = Math.max(highest, v);
        }
        if (results.size() != keys.size()) {
            throw new IllegalStateException("raising the leader fence reached " + results.size() + " of "
                    + keys.size() + " partitions");
        }
        return highest;
    }
}
