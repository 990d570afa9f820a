package io.jobinfo.store.benchmarks;

import io.jobinfo.store.demo.embedded.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar benchmarks/target/benchmarks.jar report [options]}: runs the scenario benchmark (items 1-3), the
 * cache-bound scenario (item 6), the scale scenario (item 7) and the JMH micro-benchmarks (items 4-5) in one run and writes the report (markdown,
 * raw CSV, PNG charts) to {@code docs/benchmarks/}.
 */
public final class BenchmarkMain {

    /** First port of the benchmark clusters\' members (tests use 5801+, the demo 5901+). */
    static final int CLUSTER_PORT = 6001;

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o;
        try {
            o = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (o.command.equals("migrate")) {
            Path report = runMigrate(o);
            System.err.println("report written: " + report.toAbsolutePath());
            System.exit(0);
        }
        if (o.command.equals("engine-scale")) {
            Path report = runEngineScale(o);
            System.err.println("report written: " + report.toAbsolutePath());
            System.exit(0);
        }
        if (o.command.equals("engine-history")) {
            Path report = runEngineHistory(o);
            System.err.println("report written: " + report.toAbsolutePath());
            System.exit(0);
        }
        if (!o.command.equals("report")) {
            System.out.println(BenchOptions.usage());
            System.exit(o.command.equals("help") ? 0 : 2);
        }
        Path report = run(o);
        System.err.println("report written: " + report.toAbsolutePath());
        System.exit(0);
    }

    /**
     * The {@code migrate} command: only the migrate / rollback throughput section (issue 26 item 5), written as
     * {@code README.md} under {@code --out} (default {@code benchmarks/target/migrate-report}, never the published
     * report's directory unless given).
     */
    static Path runMigrate(BenchOptions o) throws Exception {
        quietHeadlessJvm();
        long start = System.nanoTime();
        boolean tempWork = o.workDir == null;
        Path work = workDirectory(o);
        try {
            Metrics m = MigrateBenchmark.runAlone(o, work);
            double minutes = (System.nanoTime() - start) / 6e10;
            return MigrateReport.writeAlone(o, m, minutes);
        } finally {
            if (tempWork) {
                Directories.deleteRecursively(work);
            }
        }
    }

    /**
     * The {@code engine-scale} command: only the real SeaTunnel scale section (issue 28 item 1) and its chart, written
     * as {@code README.md} under {@code --out} (default {@code benchmarks/target/engine-scale-report}, never the
     * published report's directory unless given).
     */
    static Path runEngineScale(BenchOptions o) throws Exception {
        quietHeadlessJvm();
        boolean tempWork = o.workDir == null;
        Path work = workDirectory(o);
        Path dir = o.outGiven ? o.out : Path.of("benchmarks/target/engine-scale-report");
        try {
            SeaTunnelScaleBenchmark scale = new SeaTunnelScaleBenchmark(o, new Metrics(), work);
            String md = scale.run();
            Files.createDirectories(dir);
            scale.chart(dir);
            Path readme = dir.resolve("README.md");
            Files.writeString(readme, md, java.nio.charset.StandardCharsets.UTF_8);
            return readme;
        } finally {
            if (tempWork) {
                Directories.deleteRecursively(work);
            }
        }
    }

    /**
     * The {@code engine-history} command: only the real SeaTunnel finished-job history section (issue 27), written as
     * {@code README.md} under {@code --out} (default {@code benchmarks/target/engine-history-report}, never the
     * published report's directory unless given).
     */
    static Path runEngineHistory(BenchOptions o) throws Exception {
        quietHeadlessJvm();
        boolean tempWork = o.workDir == null;
        Path work = workDirectory(o);
        Path dir = o.outGiven ? o.out : Path.of("benchmarks/target/engine-history-report");
        try {
            String md = new SeaTunnelHistoryBenchmark(o, new Metrics(), work).run();
            Files.createDirectories(dir);
            Path readme = dir.resolve("README.md");
            Files.writeString(readme, md, java.nio.charset.StandardCharsets.UTF_8);
            return readme;
        } finally {
            if (tempWork) {
                Directories.deleteRecursively(work);
            }
        }
    }

    /** Charts without a display, Hazelcast through SLF4J, no phone-home. */
    private static void quietHeadlessJvm() {
        System.setProperty("java.awt.headless", "true");
        System.setProperty("hazelcast.logging.type", "slf4j");
        System.setProperty("hazelcast.phone.home.enabled", "false");
    }

    /** The run's working directory: the one given, or a temporary one (deleted after the run). */
    private static Path workDirectory(BenchOptions o) throws java.io.IOException {
        return o.workDir == null ? Files.createTempDirectory("jobinfo-bench-") : Files.createDirectories(o.workDir);
    }

    /** Runs everything and writes the report; returns the markdown file. */
    public static Path run(String... args) throws Exception {
        return run(BenchOptions.parse(args));
    }

    static Path run(BenchOptions o) throws Exception {
        quietHeadlessJvm();
        long start = System.nanoTime();
        boolean tempWork = o.workDir == null;
        Path work = workDirectory(o);
        Metrics m = new Metrics();
        List<Backend> backends = new ArrayList<>();
        List<String> stores = new ArrayList<>();
        Map<String, String> notMeasured = new LinkedHashMap<>();
        Map<String, String> described = new LinkedHashMap<>();
        List<CacheBoundBenchmark.Sample> timeline;
        List<String> variants;
        try {
            for (String s : o.stores) {
                try {
                    Backend b = Backends.start(s, work);
                    backends.add(b);
                    stores.add(s);
                    described.put(s, b.describe());
                } catch (Backends.Unavailable e) {
                    notMeasured.put(s, e.getMessage());
                    ScenarioBenchmark.log("store %s not measured: %s", s, e.getMessage());
                }
            }
            List<Backend> sized = new ArrayList<>(backends); // the sizes scenario: the plain stores only
            if (o.s3DelayMillis > 0 && stores.contains("s3")) {
                try {
                    Backend delayed = Backends.delayedS3(work, o.s3DelayMillis);
                    backends.add(delayed);
                    described.put(delayed.name(), delayed.describe());
                } catch (Backends.Unavailable e) {
                    notMeasured.put("s3-delay" + o.s3DelayMillis, e.getMessage());
                }
            }
            ScenarioBenchmark scenario = new ScenarioBenchmark(o, m, backends, work);
            scenario.run();
            variants = scenario.variantNames();
            new SizesBenchmark(o, m, sized, work).run();
            CacheBoundBenchmark cache = new CacheBoundBenchmark(o, m, work);
            cache.run();
            timeline = cache.timeline;
            if (!o.scaleJobs.isEmpty()) {
                new ScaleBenchmark(o, m, backends).run();
            }
            Backend local = backends.stream().filter(b -> b.name().equals("local")).findFirst().orElse(null);
            if (o.migrate && local != null) {
                new MigrateBenchmark(o, m, local).run();
            }
        } finally {
            for (Backend b : backends) {
                b.close();
            }
        }
        String engineSection = new SeaTunnelEngineBenchmark(o, m, work).run();
        SeaTunnelScaleBenchmark engineScale = new SeaTunnelScaleBenchmark(o, m, work);
        engineSection += engineScale.run();
        engineScale.chart(o.out);
        engineSection += new SeaTunnelHistoryBenchmark(o, m, work).run();
        if (o.jmh) {
            new MicroBenchmarks(o, m).run();
        }
        double minutes = (System.nanoTime() - start) / 6e10;
        Path readme = new ReportWriter(o, m, stores, notMeasured, described, timeline, minutes)
                .engineSection(engineSection).variants(variants).write(o.out);
        if (tempWork) {
            Directories.deleteRecursively(work);
        }
        return readme;
    }
}
