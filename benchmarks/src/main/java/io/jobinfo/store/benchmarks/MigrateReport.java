package io.jobinfo.store.benchmarks;

import io.jobinfo.store.ops.Migrator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's part of {@link MigrateBenchmark} (issue 26 item 5): a summary row per direction (target: at least
 * {@value #TARGET_MBPS} MB/s on local) and a section with the dry run, the migration and the rollback of one run side
 * by side. {@link #writeAlone} writes the section alone for the {@code migrate} command.
 */
final class MigrateReport {

    static final double TARGET_MBPS = 50;
    private final BenchOptions o;
    private final Metrics m;

    MigrateReport(BenchOptions o, Metrics m) {
        this.o = o;
        this.m = m;
    }

    boolean ran() {
        return m.has("migrate.migrate.mbps");
    }

    List<String[]> summaryRows() {
        List<String[]> rows = new ArrayList<>();
        if (!ran()) {
            return rows;
        }
        double dry = m.median("migrate.dryRun.mbps");
        for (String phase : new String[] {"migrate", "rollback"}) {
            double v = m.median("migrate." + phase + ".mbps");
            rows.add(new String[] {"8", String.format(Locale.ROOT, "`%s` throughput, local, %d jobs",
                phase.equals("migrate") ? "migrate" : "migrate --rollback", jobs()), mbs(v),
                mbs(dry) + " dry run", pct(v / dry), ">= " + (int) TARGET_MBPS + " MB/s",
                ReportWriter.verdict(v >= TARGET_MBPS)});
        }
        return rows;
    }

    private int jobs() {
        return (int) m.median("migrate.jobs");
    }

    String section() {
        if (!ran()) {
            return "";
        }
        StringBuilder md = new StringBuilder();
        md.append("## 8. `migrate` and `migrate --rollback` throughput (issue 26 item 5)\n\n");
        md.append(String.format(Locale.ROOT, "%d jobs, %s of Kryo payload in all (%s each on average), inline in a"
                + " %d-member cluster's map (1 synchronous backup), moved to and from the local store (fsync of"
                + " file and directory on) by the `Migrator` that `migrate` runs, through a Hazelcast client, with"
                + " its defaults (parallelism %d). Each round: a fresh cluster, then dry run, migration and rollback"
                + " one after the other; throughput = payload bytes / wall time of the run (keys listed to report"
                + " built), MB = 10^6 bytes. Medians of %d rounds; min..max beside.%n%n",
                jobs(), ReportWriter.bytes(m.median("migrate.payloadBytes")),
                ReportWriter.bytes(m.median("migrate.payloadBytes") / jobs()), o.members,
                o.migrateParallelism > 0 ? o.migrateParallelism : Migrator.DEFAULT_PARALLELISM, m.values("migrate.migrate.mbps").size()));
        md.append("| run | wall time | throughput | min..max | vs dry run | JVM CPU per job | target |\n"
                + "|---|---|---|---|---|---|---|\n");
        double dry = m.median("migrate.dryRun.mbps");
        for (String phase : MigrateBenchmark.PHASES) {
            String k = "migrate." + phase;
            double v = m.median(k + ".mbps");
            String name = switch (phase) {
                case "dryRun" -> "`migrate --dry-run`";
                case "migrate" -> "`migrate`";
                default -> "`migrate --rollback`";
            };
            md.append("| ").append(name).append(" | ").append(String.format(Locale.ROOT, "%.2f s",
                    m.median(k + ".seconds"))).append(" | ").append(mbs(v)).append(" | ")
                    .append(String.format(Locale.ROOT, "%.0f..%.0f", m.min(k + ".mbps"), m.max(k + ".mbps")))
                    .append(" | ").append(phase.equals("dryRun") ? "1" : pct(v / dry)).append(" | ")
                    .append(m.has(k + ".cpuMsPerJob") ? ReportWriter.ms(m.median(k + ".cpuMsPerJob")) : "n/a")
                    .append(" | ")
                    .append(phase.equals("dryRun") ? "" : ">= " + (int) TARGET_MBPS + " MB/s "
                            + ReportWriter.verdict(v >= TARGET_MBPS)).append(" |\n");
        }
        md.append("\nPer entry, `migrate` reads the inline value (one get), seals the envelope (one CRC32C and one"
                + " SHA-256 pass), creates the blob write-once (file write, fsync, link, directory fsync), reads"
                + " it back and checks header and CRC32C, then compare-and-sets the map entry; `--rollback` reads"
                + " the pointer, reads and fully verifies the blob (SHA-256 included), compare-and-sets the inline"
                + " value back and deletes the blob. The dry run does the reads alone. JVM CPU per job is the whole"
                + " process's CPU time (client, the members in this JVM, system time of the file I/O) over the run,"
                + " divided by the jobs: less sensitive than wall time to what else runs on the machine. Where the"
                + " wall time goes (timed per step while measuring issue 26 item 5): the durable create (file write,"
                + " fsync, link, directory fsync) about half, the compare-and-set (the 200 KB inline value travels"
                + " to the owner and is compared there) about a third, the map read most of the rest.\n\n");
        return md.toString();
    }

    private static String mbs(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, v < 100 ? "%.1f MB/s" : "%.0f MB/s", v);
    }

    private static String pct(double v) {
        return ReportWriter.pct(v);
    }

    /** The {@code migrate} command's report: this run's settings and the section, as README.md under --out. */
    static Path writeAlone(BenchOptions o, Metrics m, double minutes) throws IOException {
        Path dir = o.outGiven ? o.out : Path.of("benchmarks/target/migrate-report");
        Files.createDirectories(dir);
        MigrateReport r = new MigrateReport(o, m);
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks: `migrate` / `migrate --rollback` throughput\n\n");
        md.append("Generated by `").append(o.commandLine()).append("`; the same section is part of the full report (`report`).\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| date (UTC) | ").append(ZonedDateTime.now(ZoneOffset.UTC)
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"))).append(" |\n");
        md.append("| machine | ").append(Environment.describe()).append(" |\n");
        md.append("| run time | ").append(String.format(Locale.ROOT, "%.1f min", minutes)).append(" |\n\n");
        md.append("| # | figure | measured | anchor / baseline (same run) | ratio | target | |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        for (String[] row : r.summaryRows()) {
            md.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        md.append('\n').append(r.section());
        Path readme = dir.resolve("README.md");
        Files.writeString(readme, md.toString(), StandardCharsets.UTF_8);
        return readme;
    }
}
