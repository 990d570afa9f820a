package io.jobinfo.store.service;

import java.util.Optional;

/**
 * A verified, decoded job as the cache holds it: the job, its initialization timestamp, its weight (payload bytes
 * plus a fixed allowance for the decoded object), the {@link ContentKey} of the map value it was loaded from, and when
 * the map was last seen holding exactly that value ({@link #confirmedAt()}, on the cache's coarse clock).
 *
 * @param <T> the job description type
 */
final class CachedJob<T> {
    private final ContentKey key;
    private final long jobId;
    private final long initializationTimestamp;
    private final T job;
    /** What a hit returns: built once, so that a hit allocates nothing. */
    private final Optional<T> present;
    private final int weight;
    private volatile long confirmedAt = Long.MIN_VALUE;
    /** When Caffeine last saw an access of this entry (cache clock); see {@link MirroredCachedJobs#get}. */
    private volatile long touchedAt = Long.MIN_VALUE;

    CachedJob(ContentKey key, long initializationTimestamp, T job, long payloadLength) {
        this.key = key;
        this.jobId = key == null ? Long.MIN_VALUE : key.jobId();
        this.initializationTimestamp = initializationTimestamp;
        this.job = job;
        this.present = Optional.of(job);
        this.weight = weigh(payloadLength);
    }

    /** Payload plus a fixed allowance for the decoded object's shell. */
    static int weigh(long payloadLength) {
        return (int) Math.min(Integer.MAX_VALUE, payloadLength + 256);
    }

    /** The job id of {@link #key()} ({@code Long.MIN_VALUE} without a key). */
    long jobId() {
        return jobId;
    }

    ContentKey key() {
        return key;
    }

    long initializationTimestamp() {
        return initializationTimestamp;
    }

    T job() {
        return job;
    }

    /** {@link #job()} as a present {@code Optional}, the same instance every time. */
    Optional<T> present() {
        return present;
    }

    int weight() {
        return weight;
    }

    long confirmedAt() {
        return confirmedAt;
    }

    /**
     * The map held this entry's value at {@code readAt} (a time taken before the map read). Racing confirmations may
     * leave the older of two times, which only makes the entry be checked again sooner.
     */
    void confirm(long readAt) {
        if (readAt > confirmedAt) {
            confirmedAt = readAt;
        }
    }

    long touchedAt() {
        return touchedAt;
    }

    /** Caffeine recorded an access of this entry at {@code now}. Racing calls may leave the older time. */
    void touched(long now) {
        if (now != touchedAt) {
            touchedAt = now;
        }
    }

    @Override
    public String toString() {
        return "CachedJob[" + key + ", initializationTimestamp=" + initializationTimestamp + ", weight=" + weight
                + "]";
    }
}
