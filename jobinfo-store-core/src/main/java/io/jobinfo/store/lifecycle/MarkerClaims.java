package io.jobinfo.store.lifecycle;

import com.hazelcast.map.IMap;
import java.time.Clock;
import java.util.Objects;

/**
 * {@link DeleteClaims} as {@link DeleteMarker}s in the job map: a claim is {@code putIfAbsent(jobId, marker)}, so any
 * value under the id (a pointer, an inline job, a value that does not decode, another claim) keeps the blob, and
 * while the marker is there no pointer can be put under the id. Released with {@code remove(jobId, marker)}, which
 * removes only this claim (markers carry a nonce). Only for maps that no other code reads.
 */
public final class MarkerClaims implements DeleteClaims {

    private final IMap<Long, Object> map;
    private final String owner;
    private final Clock clock;

    /**
     * @param owner who deletes, recorded in the marker ({@code gc}, {@code migrate}, {@code remove}); 1 to 64 chars
     */
    @SuppressWarnings("unchecked")
    public MarkerClaims(IMap<Long, ?> map, String owner, Clock clock) {
        this.map = (IMap<Long, Object>) Objects.requireNonNull(map, "map");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Claim claim(long jobId) {
        DeleteMarker marker = DeleteMarker.claim(jobId, owner, clock.instant());
        return map.putIfAbsent(jobId, marker) == null ? adopt(marker) : null;
    }

    /**
     * A claim already in the map: one taken by another step (the registry's fenced removal replaces the pointer with
     * {@code marker}), or one left by a deleter that crashed, which GC finishes.
     */
    public Claim adopt(DeleteMarker marker) {
        Objects.requireNonNull(marker, "marker");
        return new Claim() {
            @Override
            public long jobId() {
                return marker.jobId();
            }

            @Override
            public void release() {
                map.remove(marker.jobId(), marker);
            }

            @Override
            public void abandon() {
                // the marker stays: the delete may still land; GC finishes the deletion
            }
        };
    }

    /** Nothing: a marker under the id makes the writer's compare-and-set fail. */
    @Override
    public WriteHold holdForWrite(long jobId) {
        return WriteHold.NONE;
    }

    @Override
    public String describe() {
        return "delete markers in " + map.getName();
    }
}
