package io.jobinfo.store.cli.ops;

import com.hazelcast.map.IMap;
import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.lifecycle.MapValueReader;
import io.jobinfo.store.ops.PointerRebuilder;
import io.jobinfo.store.seatunnel.SeaTunnelJobInfoFormat;
import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rebuild-pointers}: after a recorded partition loss or merge, puts pointers back for blobs whose map entry is
 * missing ({@link PointerRebuilder}); a dry run unless {@code --apply}.
 */
@Command(name = "rebuild-pointers", header = "Puts back pointers lost with a partition, from their blobs.",
        exitCodeList = {"0:listed (dry run) or rebuilt every candidate",
            "1:some candidates failed or were skipped (listed: unreadable, corrupt, or no timestamp)",
            "2:invalid arguments or configuration, no loss or merge on record and no --all-partitions, or the map"
                + " is SeaTunnel's (nothing changed)",
            ExitCodes.HELP_UNREACHABLE,
            ExitCodes.HELP_INTERNAL,
            "130/143:stopped by SIGINT (Ctrl-C) or SIGTERM; each pointer was put whole or not at all: rerun"})
public final class RebuildPointersCommand extends OpsCommand {

    @Option(names = "--apply")
    boolean apply;

    @Option(names = "--all-partitions")
    boolean allPartitions;

    @Option(names = "--incident-window", defaultValue = "7d", paramLabel = "DURATION",
            converter = DurationConverter.class)
    Duration incidentWindow;

    @Option(names = "--modified-before", paramLabel = "INSTANT")
    Instant modifiedBefore;

    @Option(names = "--timestamp-from-modification-time")
    boolean timestampFromModificationTime;

    @Override
    int execute() {
        try (OpsSession session = OpsSession.open(connection)) {
            refuseOnSeaTunnelsMap(session);
            String mapName = session.map().getName();
            IncidentLog log = new IncidentLog(session.client(), mapName);
            List<ClusterIncident> open = log.open(incidentWindow, Instant.now());
            Set<Integer> partitions = new TreeSet<>();
            boolean every = allPartitions;
            Instant latest = null;
            for (ClusterIncident c : open) {
                latest = latest == null || c.detectedAt().isAfter(latest) ? c.detectedAt() : latest;
                if (c.kind() == ClusterIncident.Kind.MERGED || c.partitionId() < 0) {
                    every = true;
                } else if (c.mapName().equals(mapName)) {
                    partitions.add(c.partitionId());
                }
            }
            if (open.isEmpty() && !allPartitions) {
                throw new OpsException(ExitCodes.USAGE, "no partition loss or merge of map " + mapName
                        + " is on record within " + DurationConverter.format(incidentWindow) + " (and none is"
                        + " unacknowledged): nothing to rebuild. If entries were lost without a record (no member"
                        + " ran a registry), rerun with --all-partitions and check the dry run");
            }
            Instant cutoff = modifiedBefore != null ? modifiedBefore
                    : latest != null ? latest : Instant.now().minus(Duration.ofMinutes(10));
            PointerRebuilder.Builder builder = PointerRebuilder.builder(session.map(), session.store(), cutoff)
                    .timestampFromModificationTime(timestampFromModificationTime);
            if (!every) {
                builder.onlyPartitions(partitions, session.client().getPartitionService());
            }
            PointerRebuilder.Report report;
            try {
                report = builder.build().run(apply);
            } catch (JobInfoStoreException e) {
                throw new OpsException(ExitCodes.UNREACHABLE, "listing the store failed: "
                        + e.getMessage(), e);
            }
            int problems = report.with(PointerRebuilder.Outcome.FAILED).size()
                    + report.with(PointerRebuilder.Outcome.NO_TIMESTAMP).size();
            int exit = problems == 0 ? ExitCodes.OK : ExitCodes.PROBLEMS;
            if (json) {
                printJson(toJson(report, mapName, session.store().storeId(), open, every, partitions, cutoff,
                        exit));
            } else {
                print(out(), report, mapName, session.store().storeId(), open, every, partitions, cutoff);
            }
            return exit;
        }
    }

    /**
     * SeaTunnel's {@code engine_runningJobInfo} (its values are SeaTunnel's {@code JobInfo}, or members run the
     * drop-in, as {@link SeaTunnelJobInfoFormat#claimLocksMap} tells): every member reads each value as its
     * {@code JobInfo}, so the bare pointers this command puts would be values no member can read. A lost job of that
     * map is gone from SeaTunnel's own state too (its job state and checkpoints live in other maps): it is resubmitted,
     * and the drop-in moves it to the store again.
     *
     * @throws OpsException exit 2, before anything is read from the store or written, naming the map and the remedy
     */
    private static void refuseOnSeaTunnelsMap(OpsSession session) {
        IMap<Long, Object> map = session.map();
        JobValueFormats formats = new ValueFormatOption().formats();
        if (new SeaTunnelJobInfoFormat().claimLocksMap(session.client(), map, new MapValueReader(map, formats))
                == null) {
            return;
        }
        throw new OpsException(ExitCodes.USAGE, "refusing: map " + map.getName() + " is SeaTunnel's (SeaTunnel's"
                + " JobInfo values, or members with the jobinfo-store drop-in), whose members cannot read the"
                + " pointers rebuild-pointers puts; nothing was changed. Resubmit the lost jobs (SeaTunnel lost their"
                + " state with the partition; the drop-in stores them again), then run 'jobinfo-store gc --map "
                + map.getName() + " --acknowledge-incidents' (docs/seatunnel.md)");
    }

    private static Map<String, Object> toJson(PointerRebuilder.Report r, String map, String storeId,
            List<ClusterIncident> open, boolean every, Set<Integer> partitions, Instant cutoff, int exit) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "rebuild-pointers");
        m.put("dryRun", !r.applied());
        m.put("map", map);
        m.put("storeId", storeId);
        List<String> incidents = new ArrayList<>();
        for (ClusterIncident c : open) {
            incidents.add(c.describe());
        }
        m.put("openIncidents", incidents);
        m.put("partitions", every ? "all" : partitions);
        m.put("modifiedBefore", cutoff.toString());
        m.put("scanned", r.scanned());
        m.put("outOfScope", r.outside());
        m.put("candidates", jsonList(r.entries(), (e, x) -> {
            x.put("jobId", e.jobId());
            x.put("location", e.location().toString());
            x.put("outcome", e.outcome().name());
            x.put("detail", e.detail());
            if (e.pointer() != null) {
                x.put("initializationTimestamp", e.pointer().initializationTimestamp());
            }
        }));
        m.put("exitCode", exit);
        return m;
    }

    private static void print(PrintWriter out, PointerRebuilder.Report r, String map, String storeId,
            List<ClusterIncident> open, boolean every, Set<Integer> partitions, Instant cutoff) {
        out.printf("Rebuild of the pointers of map %s from store %s%s%n", map, storeId,
                r.applied() ? "" : ", DRY RUN: nothing put");
        for (ClusterIncident c : open) {
            out.println("  incident: " + c.describe());
        }
        out.printf("  partitions          %s%n", every ? "all" : partitions);
        out.printf("  blobs modified before %s%n", cutoff);
        out.printf("  blobs scanned       %8d%n", r.scanned());
        out.printf("  without map entry   %8d  (in scope)%n", r.entries().size());
        out.printf("  out of scope        %8d  (other partitions, or newer than the loss)%n", r.outside());
        for (PointerRebuilder.Entry e : r.entries()) {
            String what;
            switch (e.outcome()) {
                case REBUILT:
                    what = r.applied() ? "REBUILT" : "WOULD REBUILD";
                    break;
                case REGISTERED:
                    what = "SKIPPED";
                    break;
                case NO_TIMESTAMP:
                    what = "NO TIMESTAMP";
                    break;
                default:
                    what = "FAILED";
            }
            out.printf("%s job %d at %s%s%n", what, e.jobId(), e.location(),
                    e.detail().isEmpty() ? (e.pointer() == null ? "" : " (initialized at "
                            + Instant.ofEpochMilli(e.pointer().initializationTimestamp()) + ")")
                            : ": " + e.detail());
        }
        if (!r.applied() && !r.with(PointerRebuilder.Outcome.REBUILT).isEmpty()) {
            out.println("Dry run: check the list (a blob without a pointer can also be the orphan of a submit that"
                    + " failed), then rerun with --apply.");
        } else if (r.applied()) {
            out.println("Then acknowledge the incidents: jobinfo-store gc --acknowledge-incidents (with --delete to"
                    + " collect garbage at once).");
        }
        out.flush();
    }
}
