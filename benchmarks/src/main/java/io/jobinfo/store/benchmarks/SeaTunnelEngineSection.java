package io.jobinfo.store.benchmarks;

import io.jobinfo.store.demo.engine.EngineDemoSummary;
import java.util.List;
import java.util.Locale;

/**
 * The report section of the real-engine scenario ({@link SeaTunnelEngineBenchmark}): stock SeaTunnel 2.3.8 against
 * the drop-in, medians across rounds and their drop-in/stock ratio. A figure no round measured is said so, never
 * filled in.
 */
final class SeaTunnelEngineSection {

    static final String TITLE = "## Real SeaTunnel 2.3.8 cluster: stock vs drop-in";

    private SeaTunnelEngineSection() {}

    static String markdown(Metrics m, int rounds, int jobs, int members, List<String> notes) {
        return RealEngineBenchmark.markdown(TITLE, rounds > 0, md -> {
            md.append(String.format(Locale.ROOT, "%d round(s); in each, a stock cluster and a drop-in cluster (local"
                    + " store) of %d SeaTunnel 2.3.8 member processes (`SeaTunnelServerStarter`, loopback, backup-count"
                    + " 1, heartbeat timeout 6 s), one after the other, the order alternating by round; %d real"
                    + " streaming FakeSource -> Console jobs per cluster submitted by SeaTunnel's own client (sizes in"
                    + " turn: 1 x 2, 110 x 20 and 1000 x 20 tables x columns) after one uncounted warm-up job, then"
                    + " `kill -9` of the master. Medians across rounds; the same scenario as `bin/jobinfo-store demo"
                    + " --engine seatunnel`.%n%n", rounds, members, jobs));
            md.append("| figure | stock | drop-in | drop-in / stock |\n|---|---|---|---|\n");
            for (String size : EngineDemoSummary.SIZE_ORDER) {
                row(md, m, "`engine_runningJobInfo` bytes per job, " + EngineDemoSummary.SIZES.get(size)
                        + " (owned + backup)", "bytes." + size, "%.0f");
            }
            row(md, m, "submit p50 (ms)", "submitP50", "%.1f");
            row(md, m, "submit p99 (ms)", "submitP99", "%.1f");
            row(md, m, "kill -9 master -> new master (ms)", "killToNewMaster", "%.0f");
            row(md, m, "kill -9 master -> every job RUNNING again (ms)", "killToAllRunning", "%.0f");
            row(md, m, "jobs not RUNNING again (max over rounds)", "jobsNotRunning", "max");
            md.append('\n');
            md.append("Bytes: the sum over live members of `LocalMapStats` owned + backup entry memory cost, before"
                    + " and after each submit (with the drop-in, once the job's value is the small reference)."
                    + " Submit: SeaTunnel's `ClientJobExecutionEnvironment.execute()`, which parses the job file and"
                    + " builds its DAG in the client, so the large jobs' submits are mostly client work."
                    + " Kill -> every job RUNNING: from SIGKILL of the master until the new master reports RUNNING"
                    + " for every job (it has restored its JobMaster, with the drop-in through the store).\n\n");
        }, notes);
    }

    private static void row(StringBuilder md, Metrics m, String label, String key, String fmt) {
        String s = "engine." + EngineDemoSummary.STOCK + "." + key;
        String d = "engine." + EngineDemoSummary.DROPIN + "." + key;
        if (!m.has(s) || !m.has(d)) {
            md.append("| ").append(label).append(" | not measured | not measured | |\n");
            return;
        }
        if (fmt.equals("max")) {
            md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | |%n", label, m.max(s), m.max(d)));
            return;
        }
        double a = m.median(s);
        double b = m.median(d);
        md.append("| ").append(label).append(" | ").append(String.format(Locale.ROOT, fmt, a)).append(" | ")
                .append(String.format(Locale.ROOT, fmt, b)).append(" | ")
                .append(a == 0 ? "n/a" : String.format(Locale.ROOT, "%.3gx", b / a)).append(" |\n");
    }
}
