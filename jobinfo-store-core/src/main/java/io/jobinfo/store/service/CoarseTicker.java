package io.jobinfo.store.service;

import com.github.benmanes.caffeine.cache.Ticker;
import java.util.concurrent.TimeUnit;

/**
 * A clock for the cache's expire-after-access, read on every cache hit: a volatile field that one daemon thread
 * refreshes every {@value #RESOLUTION_MILLIS} ms. {@code System.nanoTime()} costs 40-100 ns on some virtual machines
 * (measured: ~70 ns where the benchmarks ran), several times a whole {@code ConcurrentHashMap.get}; expiry is
 * configured in minutes, so this resolution costs nothing in accuracy.
 *
 * <p>One ticker is shared by every cache of the JVM that {@link #acquire acquired} it; its thread starts with the first
 * user and stops when the last one {@link #release releases} it (a registry's {@code close()}), so an engine that
 * closes its registries keeps no thread of ours. A released ticker is not read again: a cache that closed is gone.
 */
final class CoarseTicker implements Ticker {

    static final long RESOLUTION_MILLIS = 100;
    static final String THREAD_NAME = "jobinfo-cache-clock";

    private static final Object LOCK = new Object();
    private static CoarseTicker shared;
    private static int users;

    private final Thread thread;
    private volatile long now = System.nanoTime();

    private CoarseTicker() {
        thread = new Thread(() -> {
            while (true) {
                try {
                    TimeUnit.MILLISECONDS.sleep(RESOLUTION_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                now = System.nanoTime();
            }
        }, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    /** The shared ticker, its thread started if this is its first user. */
    static CoarseTicker acquire() {
        synchronized (LOCK) {
            if (shared == null) {
                shared = new CoarseTicker();
            }
            users++;
            return shared;
        }
    }

    /** One user less; the last one stops the thread. A ticker that is no longer the shared one is ignored. */
    static void release(CoarseTicker ticker) {
        synchronized (LOCK) {
            if (ticker != shared || users == 0) {
                return;
            }
            if (--users == 0) {
                shared.thread.interrupt();
                shared = null;
            }
        }
    }

    /** The ticker's thread (tests). */
    Thread thread() {
        return thread;
    }

    @Override
    public long read() {
        return now;
    }
}
