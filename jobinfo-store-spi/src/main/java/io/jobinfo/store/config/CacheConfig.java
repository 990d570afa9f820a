package io.jobinfo.store.config;

import io.jobinfo.store.values.ValueObject;
import java.time.Duration;

/**
 * Bounds of the read cache in front of the store.
 */
public final class CacheConfig extends ValueObject {
    public static final long DEFAULT_MAX_BYTES = 64L << 20;
    public static final long DEFAULT_MAX_ENTRY_BYTES = 16L << 20;
    public static final Duration DEFAULT_EXPIRE_AFTER_ACCESS = Duration.ofMinutes(30);
    /** Default of {@link #maxStaleness()}: 5 seconds. */
    public static final Duration DEFAULT_MAX_STALENESS = Duration.ofSeconds(5);

    private final long maxBytes;
    private final long maxEntryBytes;
    private final Duration expireAfterAccess;
    private final Duration maxStaleness;

    /** A cache whose {@link #maxStaleness()} is {@link #DEFAULT_MAX_STALENESS}. */
    public CacheConfig(long maxBytes, long maxEntryBytes, Duration expireAfterAccess) {
        this(maxBytes, maxEntryBytes, expireAfterAccess, DEFAULT_MAX_STALENESS);
    }

    /**
     * @param maxBytes      the most payload bytes the cache holds (default 64 MiB)
     * @param maxEntryBytes blobs larger than this are served but never cached (default 16 MiB, at most maxBytes)
     * @param expireAfterAccess entries unused this long are dropped (default 30 minutes)
     * @param maxStaleness  how long a cached job may be served without confirming with the map that its pointer is
     *                      unchanged (default 5 s; zero: every read confirms); bounds how long a removed or replaced
     *                      job can be served when the map's invalidation event is lost
     * @throws IllegalArgumentException maxStaleness is negative
     */
    public CacheConfig(long maxBytes, long maxEntryBytes, Duration expireAfterAccess, Duration maxStaleness) {
        this.maxBytes = maxBytes;
        this.maxEntryBytes = maxEntryBytes;
        this.expireAfterAccess = expireAfterAccess;
        this.maxStaleness = java.util.Objects.requireNonNull(maxStaleness, "maxStaleness");
        if (maxStaleness.isNegative()) {
            throw new IllegalArgumentException("cache max-staleness must not be negative: " + maxStaleness);
        }
    }

    public long maxBytes() {
        return maxBytes;
    }

    public long maxEntryBytes() {
        return maxEntryBytes;
    }

    public Duration expireAfterAccess() {
        return expireAfterAccess;
    }

    /** See {@link #CacheConfig(long, long, Duration, Duration)}. */
    public Duration maxStaleness() {
        return maxStaleness;
    }

    public static CacheConfig defaults() {
        return new CacheConfig(DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRY_BYTES, DEFAULT_EXPIRE_AFTER_ACCESS);
    }

    @Override
    protected Object[] components() {
        return new Object[] {"maxBytes", maxBytes, "maxEntryBytes", maxEntryBytes, "expireAfterAccess",
                expireAfterAccess, "maxStaleness", maxStaleness};
    }
}
