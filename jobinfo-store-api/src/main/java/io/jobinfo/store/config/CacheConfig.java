package io.jobinfo.store.config;

import java.time.Duration;

/**
 * Bounds of the read cache in front of the store.
 */
public final class CacheConfig {
    public static final long DEFAULT_MAX_BYTES = 64L << 20;
    public static final long DEFAULT_MAX_ENTRY_BYTES = 16L << 20;
    public static final Duration DEFAULT_EXPIRE_AFTER_ACCESS = Duration.ofMinutes(30);

    private final long maxBytes;
    private final long maxEntryBytes;
    private final Duration expireAfterAccess;

    /**
     * @param maxBytes      the most payload bytes the cache holds (default 64 MiB)
     * @param maxEntryBytes blobs larger than this are served but never cached (default 16 MiB, at most maxBytes)
     * @param expireAfterAccess entries unused this long are dropped (default 30 minutes)
     */
    public CacheConfig(long maxBytes, long maxEntryBytes, Duration expireAfterAccess) {
        this.maxBytes = maxBytes;
        this.maxEntryBytes = maxEntryBytes;
        this.expireAfterAccess = expireAfterAccess;
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

    public static CacheConfig defaults() {
        return new CacheConfig(DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRY_BYTES, DEFAULT_EXPIRE_AFTER_ACCESS);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        CacheConfig other = (CacheConfig) o;
        return maxBytes == other.maxBytes
                && maxEntryBytes == other.maxEntryBytes
                && java.util.Objects.equals(expireAfterAccess, other.expireAfterAccess);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Long.hashCode(maxBytes);
        h = 31 * h + Long.hashCode(maxEntryBytes);
        h = 31 * h + java.util.Objects.hashCode(expireAfterAccess);
        return h;
    }

    @Override
    public String toString() {
        return "CacheConfig[maxBytes=" + maxBytes + ", maxEntryBytes=" + maxEntryBytes
                + ", expireAfterAccess=" + expireAfterAccess + "]";
    }
}
