package io.jobinfo.store.service;

/**
 * How a member's job cache finds a cached job on a hit ({@link RunningJobInfoRegistry.Builder#cacheLookup}). Both
 * keep the same entries under the same bound, expiry and statistics, and both serve a job only while the map still
 * holds the content it was loaded from (content-key validity, {@code cache.max-staleness}); they differ in what a hit
 * costs and in how much code stands behind it.
 */
public enum CacheLookup {
    /**
     * The default: every entry Caffeine holds is mirrored in a lock-free table keyed by the primitive job id, which
     * a hit reads first; Caffeine sees at most one access per entry and second. A hit allocates nothing and takes
     * no lock; the benchmark report gives its cost against {@code ConcurrentHashMap.get} and against
     * {@link #CAFFEINE}. Rests on Caffeine 2.9's (deprecated) {@code CacheWriter} to keep the mirror exact.
     */
    MIRRORED,
    /**
     * Caffeine's own {@code getIfPresent} on every hit (a boxed key, Caffeine's read buffer and its clock): less
     * code, no mirror, and slower per hit by the factor the benchmark report gives.
     */
    CAFFEINE
}
