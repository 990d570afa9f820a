package io.jobinfo.store.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Item 5 of performance round 2: the memory and restore figures at real SeaTunnel job sizes (10 KB, 200 KB, 1.8 MB;
 * see shared/seatunnel.md). Runs the scenario benchmark once per size, inline baseline and pointer + every store
 * side by side, with {@code min(--jobs, 256 MiB / size)} jobs (so that the inline map of 1.8 MB jobs fits the heap)
 * and the headline loaders only; its figures land in {@code m} under {@code sizes.<bytes>.}.
 */
final class SizesBenchmark {

    private final BenchOptions o;
    private final Metrics m;
    private final List<Backend> backends;
    private final Path workDir;

    SizesBenchmark(BenchOptions o, Metrics m, List<Backend> backends, Path workDir) {
        this.o = o;
        this.m = m;
        this.backends = backends;
        this.workDir = workDir;
    }

    void run() throws Exception {
        for (int size : o.sizes) {
            BenchOptions c = o.forSize(size);
            ScenarioBenchmark.log("sizes: %d jobs of %s", c.jobs, ReportWriter.bytes(size));
            Metrics sub = new Metrics();
            new ScenarioBenchmark(c, sub, backends, workDir.resolve("sizes-" + size)).run();
            String prefix = prefix(size);
            m.add(prefix + "jobs", "jobs", c.jobs);
            for (Map.Entry<String, List<Double>> e : sub.all().entrySet()) {
                for (double v : e.getValue()) {
                    m.add(prefix + e.getKey(), sub.unit(e.getKey()), v);
                }
            }
        }
    }

    static String prefix(int size) {
        return "sizes." + size + ".";
    }
}
