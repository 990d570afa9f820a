package io.jobinfo.store.benchmarks.jmh;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What each Caffeine feature the registry's cache uses costs on a hit: bound by weight only, plus
 * expire-after-access, plus statistics, plus a same-thread maintenance executor. Tells where item 4's time goes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CaffeineConfigBenchmark {

    @Param({"weight", "weight+expiry", "weight+expiry+stats", "weight+expiry+stats+sameThread", "weight+stats"})
    public String config;

    private Cache<Long, Object> cache;
    private Long[] keys;

    @State(Scope.Thread)
    public static class Cursor {
        int i;
    }

    @Setup(Level.Trial)
    public void setUp() {
        Caffeine<Object, Object> b = Caffeine.newBuilder().maximumWeight(64L << 20);
        Caffeine<Long, Object> w = b.weigher((Long k, Object v) -> 200_000);
        if (config.contains("expiry")) {
            w.expireAfterAccess(Duration.ofMinutes(30));
        }
        if (config.contains("stats")) {
            w.recordStats();
        }
        if (config.contains("sameThread")) {
            w.executor(Runnable::run);
        }
        cache = w.build();
        keys = new Long[256];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 990_000_000_000_000L + i * 7919L;
            cache.put(keys[i], new Object());
        }
        cache.cleanUp();
    }

    @Benchmark
    public Object get(Cursor c) {
        return cache.getIfPresent(keys[c.i++ & 255]);
    }
}
