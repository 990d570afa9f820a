package io.jobinfo.store.service;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The registry's meters, all tagged {@code map=<map name>}: the cache's (Caffeine statistics as {@code cache.*} and
 * {@code jobinfo.cache.weight.bytes}), {@code jobinfo.submit}, {@code jobinfo.load}, {@code jobinfo.restore},
 * {@code jobinfo.restore.failures} and {@code jobinfo.remove.blob.delete.failures}. Recording never fails.
 */
final class RegistryMeters {

    private final Timer submitTimer;
    private final Timer encodePhase;
    private final Timer blobWritePhase;
    private final Timer pointerWritePhase;
    private final Timer blobCheckPhase;
    private final Timer loadTimer;
    private final Timer restoreTimer;
    private final Counter restoreFailures;
    private final Counter blobDeleteFailures;
    private final Counter prefetchReads;
    private final Counter prefetchUsed;

    RegistryMeters(MeterRegistry meters, String mapTag, JobCache<?> cache) {
        CaffeineCacheMetrics.monitor(meters, cache.entries().caffeine(), "jobinfo", "map", mapTag);
        Gauge.builder("jobinfo.cache.weight.bytes", cache, JobCache::weightedSize)
                .tag("map", mapTag).description("payload bytes held by the job info cache").register(meters);
        this.submitTimer = Timer.builder("jobinfo.submit").tag("map", mapTag).register(meters);
        this.encodePhase = phase(meters, mapTag, "encode", "encoding and sealing the job (CRC32C, SHA-256)");
        this.blobWritePhase = phase(meters, mapTag, "blob-write", "the store's durable, atomic write of the blob");
        this.pointerWritePhase = phase(meters, mapTag, "pointer-write", "the pointer's replicated put in the map");
        this.blobCheckPhase = phase(meters, mapTag, "blob-check",
                "the check, after the pointer write, that the blob is still there");
        this.loadTimer = Timer.builder("jobinfo.load").tag("map", mapTag)
                .description("cache misses: pointer to verified, decoded job").register(meters);
        this.restoreTimer = Timer.builder("jobinfo.restore").tag("map", mapTag).register(meters);
        this.restoreFailures = Counter.builder("jobinfo.restore.failures").tag("map", mapTag).register(meters);
        this.blobDeleteFailures = Counter.builder("jobinfo.remove.blob.delete.failures").tag("map", mapTag)
                .description("blobs left for GC because their delete failed").register(meters);
        this.prefetchReads = Counter.builder("jobinfo.restore.prefetch.reads").tag("map", mapTag)
                .description("blobs a restore read before the job map could be listed").register(meters);
        this.prefetchUsed = Counter.builder("jobinfo.restore.prefetch.used").tag("map", mapTag)
                .description("jobs a restore took from its prefetch (their pointers matched)").register(meters);
    }

    private static Timer phase(MeterRegistry meters, String mapTag, String phase, String description) {
        return Timer.builder("jobinfo.submit.phase").tag("map", mapTag).tag("phase", phase)
                .description(description).register(meters);
    }

    /** One submit's phases, as {@code System.nanoTime()} readings at their ends. */
    void submitPhases(long start, long encoded, long blobWritten, long pointerWritten, long checked) {
        encodePhase.record(encoded - start, TimeUnit.NANOSECONDS);
        blobWritePhase.record(blobWritten - encoded, TimeUnit.NANOSECONDS);
        pointerWritePhase.record(pointerWritten - blobWritten, TimeUnit.NANOSECONDS);
        blobCheckPhase.record(checked - pointerWritten, TimeUnit.NANOSECONDS);
    }

    void submitted(long startNanos) {
        submitTimer.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    void loaded(long startNanos) {
        loadTimer.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    void loadTook(long nanos) {
        loadTimer.record(nanos, TimeUnit.NANOSECONDS);
    }

    void restored(Duration took, int failures) {
        restoreTimer.record(took);
        restoreFailures.increment(failures);
    }

    void prefetched(long reads, long used) {
        prefetchReads.increment(reads);
        prefetchUsed.increment(used);
    }

    void blobDeleteFailed() {
        blobDeleteFailures.increment();
    }
}
