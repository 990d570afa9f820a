package io.jobinfo.store.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobinfo.store.cli.JobInfoStoreCli;
import io.jobinfo.store.demo.embedded.Directories;
import io.jobinfo.store.demo.engine.EngineDemoSummary;
import io.jobinfo.store.demo.engine.EngineHarness;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code demo --engine seatunnel}: the main job on real SeaTunnel 2.3.8 clusters of member processes started by the
 * demo, first stock, then with the drop-in on a local store, each: real streaming FakeSource -> Console jobs of the
 * sizes asked for, {@code kill -9} of the master, every job RUNNING again. The clusters run in a JVM of their own
 * ({@link EngineHarness}); this prints its figures side by side.
 *
 * <p>Exit codes: 0 both clusters ran and every job was RUNNING again after the kill; 1 a job did not come back; 2
 * invalid arguments or the harness is not built; 3 a cluster could not be started or driven (its member logs are
 * kept and named).
 */
final class SeaTunnelEngineDemo {

    static final int DEFAULT_JOBS = 3;
    static final Duration TIMEOUT = Duration.ofMinutes(60);

    private final DemoCommand o;

    SeaTunnelEngineDemo(DemoCommand options) {
        this.o = options;
    }

    int run() throws Exception {
        PrintWriter err = o.spec.commandLine().getErr();
        PrintWriter out = o.spec.commandLine().getOut();
        int jobs = o.spec.commandLine().getParseResult().hasMatchedOption("--jobs") ? o.jobs : DEFAULT_JOBS;
        List<String> sizes = sizes();
        EngineHarness harness;
        try {
            harness = EngineHarness.locate();
        } catch (EngineHarness.NotBuilt e) {
            err.println("jobinfo-store demo: " + e.getMessage());
            return JobInfoStoreCli.EXIT_USAGE;
        }
        boolean tempWork = o.workDir == null;
        Path work = tempWork ? Files.createTempDirectory("jobinfo-st-demo-") : o.workDir.toAbsolutePath();
        err.printf("real SeaTunnel 2.3.8 clusters of %d member processes, one after the other: stock, then the drop-in"
                + " (local store); %d jobs (%s) + 1 warm-up each; files in %s%n", o.members, jobs,
                String.join(", ", sizes), work);
        err.flush();
        List<String> args = new ArrayList<>(List.of("--members", Integer.toString(o.members), "--jobs",
                Integer.toString(jobs), "--sizes", String.join(",", sizes), "--variants", "stock,dropin",
                "--plugin-jar", harness.pluginJar().toString()));
        EngineHarness.Outcome outcome = harness.run(args, work, line -> {
            err.println("  " + line);
            err.flush();
        }, TIMEOUT);
        if (!outcome.completed()) {
            err.println("jobinfo-store demo: the SeaTunnel scenario could not run to the end: " + outcome.failure());
            err.println("member configuration and logs are kept in " + work);
            return JobInfoStoreCli.EXIT_UNREACHABLE;
        }
        Map<String, Object> summary = EngineDemoSummary.of(outcome.result());
        if (o.json) {
            Map<String, Object> json = new LinkedHashMap<>(summary);
            json.put("variants", outcome.result().path("variants"));
            out.println(new ObjectMapper().writeValueAsString(json));
        } else {
            printTable(out, summary);
        }
        out.flush();
        boolean ok = Boolean.TRUE.equals(summary.get("allRunning"));
        if (!ok) {
            for (String v : List.of(EngineDemoSummary.STOCK, EngineDemoSummary.DROPIN)) {
                if (summary.get(v) instanceof Map<?, ?> m && !((Map<?, ?>) m.get("notRunning")).isEmpty()) {
                    err.printf("FAILED: %s cluster: jobs not RUNNING again after the kill (last status): %s%n", v,
                            m.get("notRunning"));
                }
            }
            err.println("member configuration and logs are kept in " + work);
        } else if (tempWork) {
            Directories.deleteRecursively(work);
        }
        return ok ? JobInfoStoreCli.EXIT_OK : JobInfoStoreCli.EXIT_PROBLEMS;
    }

    private List<String> sizes() {
        List<String> out = new ArrayList<>();
        for (String s : (o.jobSizes == null ? "small,medium,large" : o.jobSizes).split(",")) {
            String t = s.trim().toLowerCase(Locale.ROOT);
            if (!t.isEmpty() && !out.contains(t)) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * Checks the options that apply to the real engine and rejects those that apply to the embedded demo only.
     *
     * @return the problems, one a line; empty if none
     */
    static String problems(DemoCommand o) {
        StringBuilder p = new StringBuilder();
        var parsed = o.spec.commandLine().getParseResult();
        if (parsed.hasMatchedOption("--jobs") && (o.jobs < 1 || o.jobs > 300)) {
            p.append("--jobs must be between 1 and 300 with --engine seatunnel (every job runs on the real engine),"
                    + " got ").append(o.jobs).append('\n');
        }
        if (o.members < 2 || o.members > 7) {
            p.append("--members must be between 2 and 7 (a master and someone to take over), got ").append(o.members)
                    .append('\n');
        }
        if (o.jobSizes != null) {
            boolean any = false;
            for (String s : o.jobSizes.split(",")) {
                String t = s.trim().toLowerCase(Locale.ROOT);
                if (t.isEmpty()) {
                    continue;
                }
                any = true;
                if (!EngineDemoSummary.SIZE_ORDER.contains(t)) {
                    p.append("--job-sizes: unknown size '").append(s.trim()).append("': use small (~10 KB), medium"
                            + " (~200 KB) and/or large (~1.8 MB), comma-separated\n");
                }
            }
            if (!any) {
                p.append("--job-sizes is empty: use small, medium and/or large, comma-separated\n");
            }
        }
        for (String embeddedOnly : List.of("--blob-size", "--store", "--store-dir", "--storage-config",
                "--s3-endpoint", "--s3-bucket", "--fs-default-fs", "--restore-parallelism", "--cache-max-bytes")) {
            if (parsed.hasMatchedOption(embeddedOnly)) {
                p.append(embeddedOnly).append(" applies to the embedded demo only (--engine seatunnel runs the"
                        + " drop-in on a local store under --work-dir)\n");
            }
        }
        return p.toString();
    }

    @SuppressWarnings("unchecked")
    private static void printTable(PrintWriter out, Map<String, Object> s) {
        Map<?, ?> st = (Map<?, ?>) s.get(EngineDemoSummary.STOCK);
        Map<?, ?> di = (Map<?, ?>) s.get(EngineDemoSummary.DROPIN);
        Map<?, ?> ratios = (Map<?, ?>) s.get("ratiosDropInOverStock");
        out.println();
        out.printf("JobInfo Store demo on the real engine: SeaTunnel 2.3.8, %s member processes per cluster, %s jobs"
                + " (%s) + 1 warm-up%n", s.get("members"), s.get("jobs"), String.join(", ", (List<String>) s.get(
                        "sizes")));
        String line = "+------------------------------------------+------------------+------------------+----------+";
        out.println(line);
        out.printf("| %-40s | %16s | %16s | %8s |%n", "", "stock", "drop-in (local)", "drop/st");
        out.println(line);
        for (String size : EngineDemoSummary.SIZE_ORDER) {
            Object a = ((Map<?, ?>) st.get("bytesPerJob")).get(size);
            Object b = ((Map<?, ?>) di.get("bytesPerJob")).get(size);
            if (a != null && b != null) {
                out.printf("| %-40s | %16s | %16s | %8s |%n", "engine_runningJobInfo B/job, " + EngineDemoSummary.SIZES
                        .get(size), a, b, x(((Map<?, ?>) ratios.get("bytesPerJob")).get(size)));
            }
        }
        out.printf("| %-40s | %16s | %16s | %8s |%n", "  (owned + backup LocalMapStats)", "", "", "");
        for (String[] f : new String[][] {{"mapBytesPerJob", "engine_runningJobInfo B/job, all jobs"},
            {"liveHeapBytes", "live heap after full GC, members (B)"},
            {"restRunningJobsP50Millis", "REST running-jobs, non-master (ms)"},
            {"restJobInfoP50Millis", "REST job-info p50, non-master (ms)"}}) {
            if (st.get(f[0]) != null && di.get(f[0]) != null) {
                out.printf("| %-40s | %16s | %16s | %8s |%n", f[1], st.get(f[0]), di.get(f[0]), x(ratios.get(f[0])));
            }
        }
        out.printf("| %-40s | %16s | %16s | %8s |%n", "submit p50 (ms)", st.get("submitP50Millis"),
                di.get("submitP50Millis"), x(ratios.get("submitP50Millis")));
        out.printf("| %-40s | %16s | %16s | %8s |%n", "submit p99 (ms)", st.get("submitP99Millis"),
                di.get("submitP99Millis"), x(ratios.get("submitP99Millis")));
        out.printf("| %-40s | %16s | %16s | %8s |%n", "kill -9 master -> new master (ms)",
                st.get("killToNewMasterMillis"), di.get("killToNewMasterMillis"), "");
        out.printf("| %-40s | %16s | %16s | %8s |%n", "kill -9 master -> every job RUNNING (ms)",
                orNo(st.get("killToAllRunningMillis")), orNo(di.get("killToAllRunningMillis")),
                x(ratios.get("killToAllRunningMillis")));
        out.printf("| %-40s | %16s | %16s | %8s |%n", "jobs RUNNING again / at the kill",
                st.get("jobsRunningAgain") + " / " + st.get("jobsAtKill"),
                di.get("jobsRunningAgain") + " / " + di.get("jobsAtKill"), "");
        out.printf("| %-40s | %16s | %16s | %8s |%n", "jobs the new master read from the store", "-",
                orUnknown(di.get("newMasterStoreReads")) + " (" + orUnknown(di.get("newMasterReadFailures"))
                        + " failed)", "");
        out.println(line);
    }

    private static String orUnknown(Object v) {
        return v == null ? "?" : v.toString();
    }

    private static String orNo(Object v) {
        return v == null ? "NOT ALL" : v.toString();
    }

    private static String x(Object ratio) {
        return ratio == null ? "" : ratio + "x";
    }
}
