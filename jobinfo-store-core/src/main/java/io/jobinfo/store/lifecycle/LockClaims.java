package io.jobinfo.store.lifecycle;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * {@link DeleteClaims} as per-id locks in a side map ({@link #SEATUNNEL_CLAIMS}, which holds no values), for job maps
 * whose values other code reads as its own class: nothing is ever written to the job map itself. A claim is the id's
 * lock, taken within a bounded wait, and then, under the lock, a check that the job map holds no reference under the
 * id. Whoever writes a reference under the id (the drop-in's move) holds the same lock from its blob write to its
 * compare-and-set, so a claimed id cannot get a reference until the claim ends. Hazelcast releases the locks of a
 * member or client that leaves: a lock never outlives its holder, so {@link Claim#abandon()} just unlocks.
 *
 * <p>Locks are owned by the thread that takes them: {@link Claim#release()} must run on the claiming thread.
 */
public final class LockClaims implements DeleteClaims {

    /**
     * The side map of SeaTunnel's {@code engine_runningJobInfo}, shared by the drop-in on every member and the
     * operator tools: its keys are job ids, it never holds a value.
     */
    public static final String SEATUNNEL_CLAIMS = "jobinfo-store-dropin-claims";

    private final IMap<Long, Boolean> locks;
    private final String jobMap;
    private final LongPredicate mayReference;
    private final long waitMillis;

    /**
     * @param locksMap     the side map whose per-key locks are the claims
     * @param jobMap       the job map's name, for messages
     * @param mayReference whether the job map's value under an id may reference the blob (a reference, or a value
     *                     that cannot be read); asked under the lock; an exception counts as "may"
     * @param waitMillis   how long a claim waits for a lock held by another (a move or a delete of the same id); 0
     *                     tries once
     */
    public LockClaims(HazelcastInstance hazelcast, String locksMap, String jobMap, LongPredicate mayReference,
                      long waitMillis) {
        this.locks = Objects.requireNonNull(hazelcast, "hazelcast").getMap(Objects.requireNonNull(locksMap, "locksMap"));
        this.jobMap = Objects.requireNonNull(jobMap, "jobMap");
        this.mayReference = Objects.requireNonNull(mayReference, "mayReference");
        if (waitMillis < 0) {
            throw new IllegalArgumentException("waitMillis must not be negative: " + waitMillis);
        }
        this.waitMillis = waitMillis;
    }

    /** The id's lock, taken within the configured wait. */
    @Override
    public WriteHold holdForWrite(long jobId) {
        return lock(jobId) ? () -> unlock(jobId) : null;
    }

    /**
     * @return whether the lock of {@code jobId} was taken within the configured wait
     * @throws IllegalStateException interrupted while waiting (the flag is set)
     */
    private boolean lock(long jobId) {
        try {
            return waitMillis == 0 ? locks.tryLock(jobId) : locks.tryLock(jobId, waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the claim lock of job " + jobId, e);
        }
    }

    /** Releases a lock taken on this thread; quiet if the member or client is going away. */
    private void unlock(long jobId) {
        try {
            locks.unlock(jobId);
        } catch (RuntimeException e) {
            // the holder is going away (its locks go with it) or the lock was not held
        }
    }

    @Override
    public Claim claim(long jobId) {
        if (!lock(jobId)) {
            return null; // a move or another delete of this id is under way: keep the blob
        }
        boolean referenced;
        try {
            referenced = mayReference.test(jobId);
        } catch (RuntimeException e) {
            referenced = true;
        }
        if (referenced) {
            unlock(jobId);
            return null;
        }
        return new Claim() {
            @Override
            public long jobId() {
                return jobId;
            }

            @Override
            public void release() {
                unlock(jobId);
            }

            @Override
            public void abandon() {
                unlock(jobId);
            }
        };
    }

    @Override
    public String describe() {
        return "locks in " + locks.getName() + " (job map " + jobMap + ")";
    }
}
