package io.jobinfo.store.service;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The registry's access to the job map: reads, and the two writes a coordinator makes (put a pointer if absent,
 * remove), plain or fenced by the leader epoch (see {@link LeaderFence}). Holds the epoch of the last
 * {@link #takeOver()}.
 *
 * <p>Failures: every method lets Hazelcast's runtime exceptions through unchanged; the facade decides what they mean
 * (an unknown outcome for a write). A fenced write that a newer epoch refuses returns a
 * {@link FencingProcessors.Rejected} instead of the previous value.
 */
final class PointerMap {

    private final IMap<Long, Object> map;
    private final LeaderFence fence;
    private volatile long epoch;

    PointerMap(HazelcastInstance hazelcast, String mapName, boolean fencing) {
        this.map = hazelcast.getMap(mapName);
        this.fence = fencing ? new LeaderFence(hazelcast, mapName) : null;
    }

    IMap<Long, Object> imap() {
        return map;
    }

    String name() {
        return map.getName();
    }

    Object get(long jobId) {
        return map.get(jobId);
    }

    /** Puts {@code pointer} unless a value is there; returns that value, {@code null} or a Rejected. */
    Object putIfAbsent(long jobId, JobInfoPointer pointer, long writerEpoch) {
        if (fence == null) {
            return map.putIfAbsent(jobId, pointer);
        }
        return map.executeOnKey(jobId, new FencingProcessors.FencedPointerOp(fence.fenceMapName(),
                fence.fenceKeyFor(jobId), writerEpoch, FencingProcessors.PUT_IF_ABSENT, pointer));
    }

    /** Removes the value of {@code jobId}; returns it, {@code null} or a Rejected. */
    Object remove(long jobId, long writerEpoch) {
        if (fence == null) {
            return map.remove(jobId);
        }
        return map.executeOnKey(jobId, new FencingProcessors.FencedPointerOp(fence.fenceMapName(),
                fence.fenceKeyFor(jobId), writerEpoch, FencingProcessors.REMOVE, null));
    }

    /** A snapshot of every entry (a cluster-wide call). */
    Set<Map.Entry<Long, Object>> entries() {
        return map.entrySet();
    }

    Set<Long> keys() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(map.keySet()));
    }

    int size() {
        return map.size();
    }

    boolean fencing() {
        return fence != null;
    }

    long epoch() {
        return epoch;
    }

    /** See {@link RunningJobInfoRegistry#takeOver()}. */
    long takeOver() throws FencedException {
        if (fence == null) {
            throw new IllegalStateException("takeOver() needs a registry built with fencing(true)");
        }
        long next = fence.nextEpoch();
        long highest = fence.raiseAll(next);
        if (highest > next) {
            throw new FencedException("the takeover", LeaderFence.EPOCH_KEY, null, next, highest);
        }
        epoch = next;
        return next;
    }

    /** The epoch writes carry; fails if this map is fenced and {@link #takeOver()} was never called. */
    long requireEpoch() {
        long e = epoch;
        if (fence != null && e == 0) {
            throw new IllegalStateException("this registry fences its writes: call takeOver() when this member"
                    + " becomes master, before submitting or removing jobs");
        }
        return e;
    }
}
