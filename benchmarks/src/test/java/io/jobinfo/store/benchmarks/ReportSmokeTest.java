package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole report pipeline on 20 jobs, local store only, no JMH: the files are written and carry the figures. Not a
 * timed test; the real run is {@code java -jar benchmarks/target/benchmarks.jar report}.
 */
class ReportSmokeTest {

    @Test
    void theReadmeCommandParses() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        String line = readme.lines().filter(l -> l.contains("benchmarks/target/benchmarks.jar report")).findFirst()
                .orElseThrow(() -> new AssertionError("README.md shows no benchmarks command"));
        String args = line.substring(line.indexOf("benchmarks.jar") + "benchmarks.jar".length()).replace("`", "")
                .trim();
        BenchOptions o = BenchOptions.parse(args.split("\\s+"));
        assertThat(o.command).isEqualTo("report");
        assertThat(o.jobs).isEqualTo(1000);
        assertThat(o.blobBytes).isEqualTo(200 * 1024);
    }

    @Test
    @Timeout(180)
    void quickRunWritesTheReportAndItsCharts(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("report");
        Path readme = BenchmarkMain.run("report", "--quick", "--stores", "local", "--no-jmh", "--out", out.toString(),
                "--work-dir", dir.resolve("work").toString());

        assertThat(readme).isEqualTo(out.resolve("README.md"));
        String md = Files.readString(readme);
        assertThat(md).contains("## SeaTunnel's real JobInfo: cost per job (Hazelcast 5.1)");
        assertThat(md).contains("## Summary", "cluster IMap bytes per job, pointer + local", "submit p99, local",
                "kill -> all restored + verified, local", "blob phase bandwidth, local", "max cache weight",
                "## 7. Scale", "kill -> restored growth per 10x jobs, local", "| pointer + local | 40 |",
                "| inline | 40 |");
        // where a submit's time goes: every step of the local submits, and the composite anchor beside them
        assertThat(md).contains("## Where a submit's time goes (item 2)", "| variant | submit p50 ms | submit p99 ms |"
                + " encode | blob write | pointer write | rest | GC |", "| the two in turn (durable blob, then its"
                + " pointer) |", "The local submit's p99");
        assertThat(md).containsPattern("\\| local \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\([0-9.]+\\) \\|");
        // restore per job by count, with the GC inside it
        assertThat(md).contains("| variant | jobs | kill -> restored per job | marginal per job | GC pauses during"
                + " the restore | GC share |");
        assertThat(md).doesNotContain("| n/a |");
        // the round 3 targets (issue 28 item 3): each against the floor measured beside it
        assertThat(md).contains("bare write+fsync+link+dir fsync, then bare putIfAbsent | ",
                "read + SHA-256 + decode, same bytes, same threads | ", "| <= 1.2x |", "| >= 80% |",
                "## Round 3 anchors: the floor of each target (issue 28 item 3)");
        assertThat(md).containsPattern("\\| local \\| bare write\\+fsync\\+link\\+dir fsync \\| [0-9.]+ / [0-9.]+ \\|");
        for (String png : new String[] {"memory.png", "submit-latency.png", "restore-time.png",
            "restore-bandwidth.png", "cache-weight.png", "scale.png"}) {
            assertThat(out.resolve(png)).isRegularFile();
            assertThat(Files.size(out.resolve(png))).isGreaterThan(1000);
        }
        String csv = Files.readString(out.resolve("raw.csv"));
        assertThat(csv).contains("memory.inline,", "memory.local,", "submit.local.p99,", "anchor.local.durableWrite.p99,",
                "restore.local.killToAll,", "cache.maxWeight,", "scale.local.40.restoreMs,",
                "scale.inline.10.heapRetainedPerJob,", "scale.local.40.restoreGcMs,", "submit.local.tail.pointerWrite,",
                "submit.local.p99.blobWrite,", "anchor.local.putAfterWrite.p99,", "anchor.local.durableWriteThenPut.p99,",
                "floor.local.p", "raw.local.p");
    }
}
