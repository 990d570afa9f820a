package io.jobinfo.store.service;

/**
 * A verified, decoded job as the cache holds it: the job, its initialization timestamp, its weight (payload bytes
 * plus a fixed allowance for the decoded object), the {@link ContentKey} of the map value it was loaded from, and when
 * the map was last seen holding exactly that value ({@link #confirmedAt()}, on the cache's coarse clock).
 *
 * @param <T> the job description type
 */
final class CachedJob<T> {
    private final ContentKey key;
    private final long initializationTimestamp;
    private final T job;
    private final int weight;
    private volatile long confirmedAt = Long.MIN_VALUE;

    CachedJob(ContentKey key, long initializationTimestamp, T job, long payloadLength) {
        this.key = key;
        this.initializationTimestamp = initializationTimestamp;
        this.job = job;
        this.weight = weigh(payloadLength);
    }

    /** Payload plus a fixed allowance for the decoded object's shell. */
    static int weigh(long payloadLength) {
        return (int) Math.min(Integer.MAX_VALUE, payloadLength + 256);
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

    @Override
    public String toString() {
        return "CachedJob[" + key + ", initializationTimestamp=" + initializationTimestamp + ", weight=" + weight
                + "]";
    }
}
