package io.jobinfo.store.config;

import java.time.Duration;

/**
 * Bounds of the read cache in front of the store.
 *
 * @param maxBytes      the most payload bytes the cache holds (default 64 MiB)
 * @param maxEntryBytes blobs larger than this are served but never cached (default 16 MiB, at most maxBytes)
 * @param expireAfterAccess entries unused this long are dropped (default 30 minutes)
 */
public record CacheConfig(long maxBytes, long maxEntryBytes, Duration expireAfterAccess) {
    public static final long DEFAULT_MAX_BYTES = 64L << 20;
    public static final long DEFAULT_MAX_ENTRY_BYTES = 16L << 20;
    public static final Duration DEFAULT_EXPIRE_AFTER_ACCESS = Duration.ofMinutes(30);

    public static CacheConfig defaults() {
        return new CacheConfig(DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRY_BYTES, DEFAULT_EXPIRE_AFTER_ACCESS);
    }
}
