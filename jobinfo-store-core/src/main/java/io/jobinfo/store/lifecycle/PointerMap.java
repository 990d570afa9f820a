package io.jobinfo.store.lifecycle;

import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.LeaderFence;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import io.jobinfo.store.lifecycle.FencingProcessors;
import io.jobinfo.store.lifecycle.DeleteMarker;
import io.jobinfo.store.lifecycle.FencedException;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import com.hazelcast.query.Predicates;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
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
public final class PointerMap {

    private final IMap<Long, Object> map;
    private final LeaderFence fence;
    private volatile long epoch;

    public PointerMap(HazelcastInstance hazelcast, String mapName, boolean fencing) {
        this.map = hazelcast.getMap(mapName);
        this.fence = fencing ? new LeaderFence(hazelcast, mapName) : null;
    }

    public IMap<Long, Object> imap() {
        return map;
    }

    public String name() {
        return map.getName();
    }

    public Object get(long jobId) {
        return map.get(jobId);
    }

    /**
     * {@code map.get(jobId)}, with a value Hazelcast refuses to deserialize (a Java-serialized object the
     * {@link JavaDeserializationFilter} does not allow, or bytes of an unknown type) reported naming the job.
     */
    public Object readValue(long jobId) throws JobInfoStoreException {
        try {
            return map.get(jobId);
        } catch (HazelcastSerializationException e) {
            throw unreadableValue(jobId, e);
        }
    }

    private JobInfoStoreException unreadableValue(long jobId, HazelcastSerializationException e) {
        return new JobInfoStoreException("The job map value of this job cannot be deserialized and was not used"
                + " (" + e.getMessage() + "); it is not a value this library or the engine wrote. Inspect it with"
                + " 'jobinfo-store inspect' and remove the entry if it does not belong there", jobId,
                Location.of("map", map.getName()), e);
    }

    /**
     * Every registered entry of the map (delete markers left out), in one call; if some value cannot be deserialized, entry by entry, each unreadable one
     * added to {@code failed} (naming its job id) instead of failing the whole read.
     */
    public List<Map.Entry<Long, Object>> readableEntries(Map<Long, JobInfoStoreException> failed) {
        try {
            // copied here: the set may deserialize its values lazily, while being iterated
            return entries();
        } catch (HazelcastSerializationException whole) {
            List<Map.Entry<Long, Object>> readable = new ArrayList<>();
            for (Long jobId : map.keySet()) {
                try {
                    Object value = map.get(jobId);
                    if (value != null && !(value instanceof DeleteMarker)) {
                        readable.add(new AbstractMap.SimpleImmutableEntry<>(jobId, value));
                    }
                } catch (HazelcastSerializationException e) {
                    failed.put(jobId, unreadableValue(jobId, e));
                }
            }
            return readable;
        }
    }

    /** Puts {@code pointer} unless a value is there; returns that value, {@code null} or a Rejected. */
    public Object putIfAbsent(long jobId, JobInfoPointer pointer, long writerEpoch) {
        if (fence == null) {
            return map.putIfAbsent(jobId, pointer);
        }
        return map.executeOnKey(jobId, new FencingProcessors.FencedPointerOp(fence.fenceMapName(),
                fence.fenceKeyFor(jobId), writerEpoch, FencingProcessors.PUT_IF_ABSENT, pointer));
    }

    /** Removes the value of {@code jobId}; returns it, {@code null} or a Rejected. */
    public Object remove(long jobId, long writerEpoch) {
        if (fence == null) {
            return map.remove(jobId);
        }
        return map.executeOnKey(jobId, new FencingProcessors.FencedPointerOp(fence.fenceMapName(),
                fence.fenceKeyFor(jobId), writerEpoch, FencingProcessors.REMOVE, null));
    }

    /**
     * Claims {@code jobId} for deletion: replaces the registered value (a pointer or an inline job) with
     * {@code marker}, atomically (a compare-and-set, fenced when this map is). Returns the value replaced;
     * {@code null} or a {@link DeleteMarker} if nothing was registered (nothing changed); or a Rejected.
     */
    public Object claim(long jobId, DeleteMarker marker, long writerEpoch) {
        if (fence != null) {
            return map.executeOnKey(jobId, new FencingProcessors.FencedPointerOp(fence.fenceMapName(),
                    fence.fenceKeyFor(jobId), writerEpoch, FencingProcessors.CLAIM, marker));
        }
        while (true) {
            Object current = map.get(jobId);
            if (current == null || current instanceof DeleteMarker) {
                return current;
            }
            if (map.replace(jobId, current, marker)) {
                return current;
            }
            // changed between the read and the compare-and-set: look again
        }
    }

    /** A snapshot of every registered entry (a cluster-wide call); delete markers (no job) are left out. */
    public List<Map.Entry<Long, Object>> entries() {
        List<Map.Entry<Long, Object>> out = new ArrayList<>();
        for (Map.Entry<Long, Object> e : map.entrySet()) {
            if (!(e.getValue() instanceof DeleteMarker)) {
                out.add(e);
            }
        }
        return out;
    }

    /** Ids of every registered job; ids under a delete marker (no job) are left out. */
    @SuppressWarnings("unchecked")
    public Set<Long> keys() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(map.keySet(
                Predicates.not(Predicates.instanceOf(DeleteMarker.class)))));
    }

    public int size() {
        return keys().size();
    }

    public boolean fencing() {
        return fence != null;
    }

    public long epoch() {
        return epoch;
    }

    /** See {@link io.jobinfo.store.service.RunningJobInfoRegistry#takeOver()}. */
    public long takeOver() throws FencedException {
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
    public long requireEpoch() {
        long e = epoch;
        if (fence != null && e == 0) {
            throw new IllegalStateException("this registry fences its writes: call takeOver() when this member"
                    + " becomes master, before submitting or removing jobs");
        }
        return e;
    }
}
