package io.jobinfo.store.service;

/**
 * A verified, decoded job as the cache holds it: the job, its initialization timestamp and its weight (payload
 * bytes plus a fixed allowance for the decoded object).
 *
 * @param <T> the job description type
 */
final class CachedJob<T> {
    private final long initializationTimestamp;
    private final T job;
    private final int weight;

    CachedJob(long initializationTimestamp, T job, long payloadLength) {
        this.initializationTimestamp = initializationTimestamp;
        this.job = job;
        this.weight = weigh(payloadLength);
    }

    /** Payload plus a fixed allowance for the decoded object's shell. */
    static int weigh(long payloadLength) {
        return (int) Math.min(Integer.MAX_VALUE, payloadLength + 256);
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

    @Override
    public String toString() {
        return "CachedJob[initializationTimestamp=" + initializationTimestamp + ", job=" + job + ", weight=" + weight
                + "]";
    }
}
