package io.jobinfo.store.service;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The job cache's hit path: job id to cached job, read without locks, without boxing the id and without allocating;
 * writes take this map's lock. An open-addressing table (linear probing) of {@link CachedJob}s, each of which knows
 * its job id; a removed entry leaves a tombstone until the next rebuild. At most half of the slots are ever used
 * (entries plus tombstones), so every probe ends at an empty slot; a reader that raced a rebuild finishes on the old
 * table, which is never written again, and sees the map as it was a moment before.
 *
 * <p>Holds what {@link JobCache}'s Caffeine cache holds (it is written only from Caffeine's writer), so it needs no
 * bound of its own. Never fails.
 *
 * @param <T> the job description type
 */
final class HotMap<T> {

    private static final Object TOMBSTONE = new Object();
    private static final int MIN_CAPACITY = 16;

    private volatile AtomicReferenceArray<Object> table = new AtomicReferenceArray<>(MIN_CAPACITY);
    /** Entries in {@link #table} (guarded by this). */
    private int live;
    /** Entries plus tombstones in {@link #table} (guarded by this). */
    private int used;

    /** The entry of {@code jobId}, or {@code null}. */
    @SuppressWarnings("unchecked")
    CachedJob<T> get(long jobId) {
        AtomicReferenceArray<Object> t = table;
        int mask = t.length() - 1;
        for (int i = index(jobId, mask); ; i = (i + 1) & mask) {
            Object o = t.get(i);
            if (o == null) {
                return null;
            }
            if (o != TOMBSTONE && ((CachedJob<T>) o).jobId() == jobId) {
                return (CachedJob<T>) o;
            }
        }
    }

    /** Makes {@code job} the entry of its job id, replacing any other. */
    synchronized void put(CachedJob<T> job) {
        long jobId = job.jobId();
        AtomicReferenceArray<Object> t = table;
        int mask = t.length() - 1;
        int free = -1;
        int i = index(jobId, mask);
        for (; ; i = (i + 1) & mask) {
            Object o = t.get(i);
            if (o == null) {
                break;
            }
            if (o == TOMBSTONE) {
                if (free < 0) {
                    free = i;
                }
            } else if (((CachedJob<?>) o).jobId() == jobId) {
                t.set(i, job);
                return;
            }
        }
        if (free >= 0) {
            t.set(free, job); // re-uses a tombstone: used stays
            live++;
            return;
        }
        if ((used + 1) * 2 > t.length()) {
            rebuild(live + 1);
            put(job);
            return;
        }
        t.set(i, job);
        live++;
        used++;
    }

    /** Removes the entry of {@code jobId} if it is {@code job} (the same instance). */
    synchronized void remove(long jobId, CachedJob<T> job) {
        AtomicReferenceArray<Object> t = table;
        int mask = t.length() - 1;
        for (int i = index(jobId, mask); ; i = (i + 1) & mask) {
            Object o = t.get(i);
            if (o == null) {
                return;
            }
            if (o == job) {
                t.set(i, TOMBSTONE);
                live--;
                if (live * 8 < t.length() && t.length() > MIN_CAPACITY) {
                    rebuild(live); // mostly tombstones now: shrink
                }
                return;
            }
        }
    }

    /** Removes the entry of {@code jobId}, whatever it is. */
    synchronized void remove(long jobId) {
        CachedJob<T> e = get(jobId);
        if (e != null) {
            remove(jobId, e);
        }
    }

    synchronized int size() {
        return live;
    }

    /** A new table with room for {@code entries} at a quarter of its slots, without tombstones. */
    private void rebuild(int entries) {
        AtomicReferenceArray<Object> old = table;
        int capacity = MIN_CAPACITY;
        while (capacity < entries * 4) {
            capacity <<= 1;
        }
        AtomicReferenceArray<Object> t = new AtomicReferenceArray<>(capacity);
        int mask = capacity - 1;
        int n = 0;
        for (int j = 0; j < old.length(); j++) {
            Object o = old.get(j);
            if (o != null && o != TOMBSTONE) {
                int i = index(((CachedJob<?>) o).jobId(), mask);
                while (t.get(i) != null) {
                    i = (i + 1) & mask;
                }
                t.set(i, o);
                n++;
            }
        }
        live = n;
        used = n;
        table = t;
    }

    private static int index(long jobId, int mask) {
        long h = jobId * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
