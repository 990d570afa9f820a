package io.jobinfo.store.config;

import com.google.auto.value.AutoValue;
import java.time.Duration;

/**
 * Bounds of the read cache in front of the store.
 */
@AutoValue
public abstract class CacheConfig {
    public static final long DEFAULT_MAX_BYTES = 64L << 20;
    public static final long DEFAULT_MAX_ENTRY_BYTES = 16L << 20;
    public static final Duration DEFAULT_EXPIRE_AFTER_ACCESS = Duration.ofMinutes(30);
    /** Default of {@link #maxStaleness()}: 5 seconds. */
    public static final Duration DEFAULT_MAX_STALENESS = Duration.ofSeconds(5);

    CacheConfig() {
    }

    /** A cache whose {@link #maxStaleness()} is {@link #DEFAULT_MAX_STALENESS}. */
    public static CacheConfig of(long maxBytes, long maxEntryBytes, Duration expireAfterAccess) {
        return of(maxBytes, maxEntryBytes, expireAfterAccess, DEFAULT_MAX_STALENESS);
    }

    /**
     * @param maxBytes      the most payload bytes the cache holds (default 64 MiB)
     * @param maxEntryBytes blobs larger than this are served but never cached (default 16 MiB, at most maxBytes)
     * @param expireAfterAccess entries unused this long are dropped (default 30 minutes)
     * @param maxStaleness  how long a cached job may be served without confirming with the map that its pointer is
     *                      unchanged (default 5 s; zero: every read confirms); bounds how long a removed or replaced
     *                      job can be served when the map's invalidation event is lost
     * @throws IllegalArgumentException maxStaleness is negative
     * @throws NullPointerException     expireAfterAccess or maxStaleness is null
     */
    public static CacheConfig of(long maxBytes, long maxEntryBytes, Duration expireAfterAccess,
            Duration maxStaleness) {
        if (maxStaleness != null && maxStaleness.isNegative()) {
            throw new IllegalArgumentException("cache max-staleness must not be negative: " + maxStaleness);
        }
        return new AutoValue_CacheConfig(maxBytes, maxEntryBytes, expireAfterAccess, maxStaleness);
    }

    public abstract long maxBytes();

    public abstract long maxEntryBytes();

    public abstract Duration expireAfterAccess();

    /** See {@link #of(long, long, Duration, Duration)}. */
    public abstract Duration maxStaleness();

    public static CacheConfig defaults() {
        return of(DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRY_BYTES, DEFAULT_EXPIRE_AFTER_ACCESS);
    }

}
