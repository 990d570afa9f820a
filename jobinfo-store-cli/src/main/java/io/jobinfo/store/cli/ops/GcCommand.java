package io.jobinfo.store.cli.ops;

import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.lifecycle.InlineJobInfo;

import io.jobinfo.store.ops.GarbageCollector;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gc}: lists (dry run) or deletes blobs no map entry references, older than a grace period. */
@Command(name = "gc", header = "Lists, or deletes with --delete, blobs that no entry of the job map references.",
        exitCodeList = {"0:listed (dry run) or deleted everything found",
            "1:some deletes failed (listed; the next run retries them), --delete was held by a recorded"
                + " partition loss or merge and deleted nothing, or map values do not decode (listed by job id;"
                + " their blobs are kept, everything else was listed or deleted)",
            "2:invalid arguments or configuration, a grace period below 10m, or --delete refused because the job"
                + " map is missing or empty while the store holds blobs (see --force)",
            ExitCodes.HELP_UNREACHABLE,
            ExitCodes.HELP_INTERNAL,
            "130/143:stopped by SIGINT (Ctrl-C) or SIGTERM before its report; a deletion in progress stays claimed"
                + " and the next run finishes it"})
public final class GcCommand extends OpsCommand {

    /** The shortest grace period accepted without {@code --force} (docs/operations.md, "GC grace period"). */
    static final Duration MIN_GRACE = Duration.ofMinutes(10);

    @Option(names = "--grace", defaultValue = "1h", paramLabel = "DURATION", converter = DurationConverter.class)
    Duration grace;

    @Option(names = "--delete")
    boolean delete;

    @Option(names = "--force")
    boolean force;

    @Option(names = "--incident-window", defaultValue = "7d", paramLabel = "DURATION",
            converter = DurationConverter.class)
    Duration incidentWindow;

    @Option(names = "--acknowledge-incidents")
    boolean acknowledgeIncidents;

    @Option(names = "--history")
    boolean history;

    @Mixin
    ProgressOption progress;

    @Override
    int execute() {
        if (grace.isNegative()) {
            throw new OpsException(ExitCodes.USAGE, "--grace must not be negative");
        }
        if (grace.compareTo(MIN_GRACE) < 0 && !force) {
            throw new OpsException(ExitCodes.USAGE, "--grace " + DurationConverter.format(grace)
                    + " is below the minimum of " + DurationConverter.format(MIN_GRACE) + ": a shorter grace period"
                    + " can delete the blob of a submit still in flight; give at least 10m, or add --force if no"
                    + " submit can be running (see docs/operations.md, GC grace period)");
        }
        try (OpsSession session = OpsSession.open(connection)) {
            if (delete && !force && !history) {
                refuseWithoutJobMap(session);
            }
            IncidentLog incidents = new IncidentLog(session.client(), session.map().getName());
            if (acknowledgeIncidents) {
                incidents.acknowledge(java.time.Instant.now(), "jobinfo-store gc --acknowledge-incidents");
            }
            ProgressDisplay display = progress.display(err(), "gc scan");
            if (history) {
                return history(session, incidents, display);
            }
            GcReport report;
            try {
                boolean[] started = {false};
                JobValueFormats formats = new ValueFormatOption().formats(); // auto: SeaTunnel's and ours
                report = new GarbageCollector(session.map(), session.store(), grace)
                        .formats(formats)
                        // SeaTunnel's map: locks in the drop-in's claims map, never a marker in SeaTunnel's map
                        .claims(formats.deleteClaims(session.client(), session.map(), GarbageCollector.MARKER_OWNER,
                                java.time.Clock.systemUTC()))
                        .holdOnIncidents(incidents, incidentWindow).run(delete, blob -> {
                    if (!started[0]) {
                        started[0] = true;
                        display.start(-1); // the store listing gives no count ahead
                    }
                    display.step(blob.sizeBytes());
                });
            } catch (JobInfoStoreException e) {
                throw new OpsException(ExitCodes.UNREACHABLE, "listing the store failed: "
                        + e.getMessage(), e);
            } finally {
                display.finish();
            }
            int exit = report.failures().isEmpty() && !report.held() && report.undecodable().isEmpty()
                    ? ExitCodes.OK : ExitCodes.PROBLEMS;
            if (json) {
                printJson(toJson(report, session.map().getName(), session.store().storeId(), exit));
            } else {
                print(out(), report, session.map().getName(), session.store().storeId());
            }
            return exit;
        }
    }

    /** {@code --history}: a run per history map (incidents of the job map hold it), a report each. */
    private int history(OpsSession session, IncidentLog incidents, ProgressDisplay display) {
        Map<String, HistoryGc.Run> reports;
        try {
            boolean[] started = {false};
            reports = HistoryGc.run(session, connection, grace, delete, force, incidents, incidentWindow, blob -> {
                if (!started[0]) {
                    started[0] = true;
                    display.start(-1);
                }
                display.step(blob.sizeBytes());
            });
        } finally {
            display.finish();
        }
        int exit = ExitCodes.OK;
        for (HistoryGc.Run r : reports.values()) {
            if (r.report() != null && (!r.report().failures().isEmpty() || r.report().held())) {
                exit = ExitCodes.PROBLEMS;
            }
        }
        if (json) {
            List<Map<String, Object>> maps = new ArrayList<>();
            for (Map.Entry<String, HistoryGc.Run> e : reports.entrySet()) {
                HistoryGc.Run r = e.getValue();
                if (r.report() != null) {
                    maps.add(toJson(r.report(), e.getKey(), r.storeId(), exit));
                } else {
                    Map<String, Object> missing = new LinkedHashMap<>();
                    missing.put("map", e.getKey());
                    missing.put("storeId", r.storeId());
                    missing.put("mapMissing", true);
                    missing.put("blobs", r.blobsOfMissingMap());
                    maps.add(missing);
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("command", "gc");
            m.put("history", true);
            m.put("dryRun", !delete);
            m.put("maps", maps);
            m.put("exitCode", exit);
            printJson(m);
        } else {
            reports.forEach((name, r) -> {
                if (r.report() != null) {
                    print(out(), r.report(), name, r.storeId());
                } else {
                    out().printf("GC of store %s against map %s: the map does not exist on this cluster; its %d"
                            + " blob(s) are not looked at (a wrong --cluster-name looks the same); --delete --force"
                            + " deletes them past the grace period%n", r.storeId(), name, r.blobsOfMissingMap());
                }
            });
            out().flush();
        }
        return exit;
    }

    /**
     * A job map that is missing or empty while the store holds blobs is far more often a wrong {@code --map} or
     * {@code --cluster-name} than a cluster without jobs: deleting would remove the blob of every running job.
     *
     * @throws OpsException exit 2, naming the map, the cluster and {@code --force}
     */
    private void refuseWithoutJobMap(OpsSession session) {
        boolean existed = session.mapExisted();
        if (existed && !session.map().isEmpty()) {
            return;
        }
        long blobs;
        try {
            blobs = NamespaceClaim.jobsOnly(session.store().list()).stream().filter(b -> !b.incomplete()).count();
        } catch (JobInfoStoreException e) {
            throw new OpsException(ExitCodes.UNREACHABLE, "listing the store failed: " + e.getMessage(), e);
        }
        if (blobs == 0) {
            return;
        }
        throw new OpsException(ExitCodes.USAGE, "refusing to delete: the job map '"
                + session.map().getName() + "' " + (existed ? "is empty" : "does not exist") + " on cluster '"
                + session.client().getConfig().getClusterName() + "' while store " + session.store().storeId()
                + " holds " + blobs + " blob(s), so every one of them would be deleted. Check --map and"
                + " --cluster-name (a dry run without --delete lists what would go); if every job has really ended,"
                + " rerun with --force");
    }

    private static Map<String, Object> toJson(GcReport r, String map, String storeId, int exit) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "gc");
        m.put("dryRun", !r.deleting());
        m.put("map", map);
        m.put("storeId", storeId);
        m.put("graceSeconds", r.grace().getSeconds());
        m.put("scanned", r.scanned());
        m.put("referenced", r.referenced());
        m.put("young", r.young());
        m.put("orphans", blobs(r.orphans()));
        m.put("leftovers", blobs(r.leftovers()));
        m.put("reclaimableBytes", r.reclaimableBytes());
        m.put("deleted", blobs(r.deleted()));
        m.put("savedByRecheck", r.savedByRecheck());
        m.put("claimed", r.claimed());
        m.put("interruptedDeletions", r.interruptedDeletions());
        m.put("finishedDeletions", r.finishedDeletions());
        m.put("held", r.held());
        List<String> incidents = new ArrayList<>();
        for (ClusterIncident c : r.heldBy()) {
            incidents.add(c.describe());
        }
        m.put("openIncidents", incidents);
        m.put("undecodable", jsonList(r.undecodable().entrySet(), (u, e) -> {
            e.put("jobId", u.getKey());
            e.put("reason", u.getValue());
        }));
        m.put("failures", r.failures());
        m.put("exitCode", exit);
        return m;
    }

    private static List<Map<String, Object>> blobs(List<StoredBlob> list) {
        return jsonList(list, (b, e) -> {
            e.put("jobId", b.jobId());
            e.put("location", b.location().toString());
            e.put("sizeBytes", b.sizeBytes());
            e.put("lastModified", b.lastModified().toString());
        });
    }

    private static void print(PrintWriter out, GcReport r, String map, String storeId) {
        out.printf("GC of store %s against map %s, grace %s%s%n", storeId, map,
                DurationConverter.format(r.grace()), r.deleting() ? "" : ", DRY RUN: nothing deleted");
        out.printf("  objects scanned     %8d%n", r.scanned());
        out.printf("  referenced          %8d%n", r.referenced());
        out.printf("  younger than grace  %8d  (kept)%n", r.young());
        out.printf("  orphans             %8d%n", r.orphans().size());
        out.printf("  leftovers           %8d%n", r.leftovers().size());
        out.printf("  reclaimable         %8s%n", bytes(r.reclaimableBytes()));
        if (!r.undecodable().isEmpty()) {
            out.printf("  undecodable values  %8d  (their blobs are kept)%n", r.undecodable().size());
        }
        if (r.deleting()) {
            out.printf("  deleted             %8d%n", r.deleted().size());
            if (r.savedByRecheck() > 0) {
                out.printf("  kept: registered during the run %d%n", r.savedByRecheck());
            }
        }
        if (r.claimed() > 0) {
            out.printf("  being deleted       %8d  (job id claimed by a deletion; %d interrupted, %d finished)%n",
                    r.claimed(), r.interruptedDeletions(), r.finishedDeletions().size());
        }
        for (ClusterIncident c : r.heldBy()) {
            out.println((r.deleting() ? "HELD: " : "WOULD HOLD: ") + c.describe());
        }
        if (!r.heldBy().isEmpty()) {
            out.println(r.deleting() ? "Nothing was deleted: the blobs of pointers lost with a partition look like"
                    + " orphans. Run 'jobinfo-store rebuild-pointers' (dry run first), then 'gc --delete"
                    + " --acknowledge-incidents'." : "A run with --delete would delete nothing until the incidents"
                    + " are acknowledged (after rebuild-pointers).");
        }
        for (StoredBlob b : r.orphans()) {
            out.printf("%s job %d at %s (%s, modified %s)%n", r.deleting() && r.deleted().contains(b) ? "DELETED"
                    : "ORPHAN", b.jobId(), b.location(), bytes(b.sizeBytes()), b.lastModified());
        }
        for (StoredBlob b : r.leftovers()) {
            out.printf("%s leftover of job %d at %s (%s, modified %s)%n", r.deleting() && r.deleted().contains(b)
                    ? "DELETED" : "INCOMPLETE", b.jobId(), b.location(), bytes(b.sizeBytes()), b.lastModified());
        }
        r.undecodable().forEach((jobId, reason) -> out.printf("UNDECODABLE job %d (blob kept): %s%n", jobId,
                reason));
        for (String f : r.failures()) {
            out.println("FAILED " + f);
        }
        if (!r.deleting() && r.heldBy().isEmpty() && (!r.orphans().isEmpty() || !r.leftovers().isEmpty())) {
            out.println("Dry run: rerun with --delete to remove them.");
        }
        out.flush();
    }
}
