package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migrate section's rows and text from given figures (no cluster: the scenario itself runs in the {@code migrate}
 * and {@code report} commands, never in a timed test).
 */
class MigrateReportTest {

    private static Metrics figures() {
        Metrics m = new Metrics();
        m.add("migrate.jobs", "jobs", 1000);
        m.add("migrate.payloadBytes", "bytes", 205_000_000);
        for (double[] r : new double[][] {{400, 60, 80}, {300, 40, 90}, {500, 70, 70}}) {
            m.add("migrate.dryRun.mbps", "MB/s", r[0]);
            m.add("migrate.migrate.mbps", "MB/s", r[1]);
            m.add("migrate.rollback.mbps", "MB/s", r[2]);
            m.add("migrate.dryRun.seconds", "s", 205 / r[0]);
            m.add("migrate.migrate.seconds", "s", 205 / r[1]);
            m.add("migrate.rollback.seconds", "s", 205 / r[2]);
        }
        return m;
    }

    @Test
    void summaryRowsQuoteMediansAgainstTheTarget() {
        var rows = new MigrateReport(BenchOptions.parse(new String[] {"report"}), figures()).summaryRows();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsExactly("8", "`migrate` throughput, local, 1000 jobs", "60.0 MB/s",
                "400 MB/s dry run", "15%", ">= 50 MB/s", "**met**");
        assertThat(rows.get(1)[1]).isEqualTo("`migrate --rollback` throughput, local, 1000 jobs");
        assertThat(rows.get(1)[2]).isEqualTo("80.0 MB/s");
    }

    @Test
    void nothingWhenNotMeasured() {
        MigrateReport r = new MigrateReport(BenchOptions.parse(new String[] {"report", "--quick"}), new Metrics());
        assertThat(r.summaryRows()).isEmpty();
        assertThat(r.section()).isEmpty();
    }

    @Test
    void theMigrateCommandWritesItsSectionUnderTheGivenDirectory(@TempDir Path dir) throws Exception {
        BenchOptions o = BenchOptions.parse(new String[] {"migrate", "--out", dir.toString()});
        assertThat(o.command).isEqualTo("migrate");
        assertThat(BenchOptions.parse(new String[] {"migrate"}).outGiven).isFalse();
        assertThat(BenchOptions.parse(new String[] {"report", "--quick"}).migrate).isFalse();
        Path readme = MigrateReport.writeAlone(o, figures(), 1.0);
        String md = Files.readString(readme);
        assertThat(readme).isEqualTo(dir.resolve("README.md"));
        assertThat(md).contains("## 8. `migrate` and `migrate --rollback` throughput (issue 26 item 5)",
                "| `migrate --dry-run` |", "| `migrate` | 3.42 s | 60.0 MB/s | 40..70 | 15% | n/a | >= 50 MB/s **met** |",
                "| `migrate --rollback` |", "parallelism 16");
    }
}
