package io.jobinfo.store.benchmarks;

import io.jobinfo.store.benchmarks.jmh.CacheHitBenchmark;
import io.jobinfo.store.service.CacheLookup;
import io.jobinfo.store.benchmarks.jmh.CaffeineConfigBenchmark;
import io.jobinfo.store.benchmarks.jmh.EnvelopeBenchmark;
import java.util.Collection;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Items 4 and 5 through the JMH Runner API, with short explicit iteration settings, so that their figures land in the
 * same run and the same report. Every measurement iteration's score is kept; the report quotes their median.
 */
final class MicroBenchmarks {

    private final BenchOptions o;
    private final Metrics m;

    MicroBenchmarks(BenchOptions o, Metrics m) {
        this.o = o;
        this.m = m;
    }

    void run() throws Exception {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include(Pattern.quote(CacheHitBenchmark.class.getName()) + ".*")
                .include(Pattern.quote(EnvelopeBenchmark.class.getName()) + ".*")
                .include(Pattern.quote(CaffeineConfigBenchmark.class.getName()) + ".*")
                .param("jobBytes", Integer.toString(o.blobBytes))
                .forks(o.jmhForks)
                .warmupIterations(o.jmhWarmups)
                .warmupTime(TimeValue.milliseconds((long) (o.jmhSeconds * 1000)))
                .measurementIterations(o.jmhIterations)
                .measurementTime(TimeValue.milliseconds((long) (o.jmhSeconds * 1000)))
                // threads per benchmark from its @Threads (1 unless annotated: the TwoThreads variants run on 2)
                .shouldFailOnError(true)
                .verbosity(o.quick ? VerboseMode.SILENT : VerboseMode.NORMAL)
                .jvmArgsAppend("-Xmx2g", "-XX:+UseG1GC", "-Dhazelcast.logging.type=slf4j",
                        "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                        "--add-opens", "java.base/java.nio=ALL-UNNAMED",
                        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                        "--add-opens", "java.management/sun.management=ALL-UNNAMED",
                        "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");
        ScenarioBenchmark.log("JMH: %d fork(s), %d x %.1f s warm-up, %d x %.1f s measured per benchmark", o.jmhForks,
                o.jmhWarmups, o.jmhSeconds, o.jmhIterations, o.jmhSeconds);
        Collection<RunResult> results = new Runner(b.build()).run();
        for (RunResult rr : results) {
            String full = rr.getParams().getBenchmark();
            String name = full.substring(full.lastIndexOf('.') + 1);
            String config = rr.getParams().getParam("config");
            if (config != null) {
                name = "caffeine[" + config + "]";
            }
            if (CacheLookup.CAFFEINE.name().equals(rr.getParams().getParam("lookup"))) {
                name += "[caffeineLookup]"; // the registry with Caffeine's own lookup; the default's keep their names
            }
            String unit = rr.getPrimaryResult().getScoreUnit();
            for (BenchmarkResult br : rr.getBenchmarkResults()) {
                for (IterationResult ir : br.getIterationResults()) {
                    m.add("jmh." + name, unit, ir.getPrimaryResult().getScore());
                }
            }
            m.add("jmh." + name + ".error", unit, rr.getPrimaryResult().getScoreError());
        }
    }
}
