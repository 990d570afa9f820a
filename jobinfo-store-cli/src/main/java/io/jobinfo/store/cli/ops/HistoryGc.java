package io.jobinfo.store.cli.ops;

import com.google.auto.value.AutoValue;
import io.jobinfo.store.values.Nullable;
import com.hazelcast.map.IMap;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.lifecycle.LockClaims;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.ops.GarbageCollector;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.seatunnel.dropin.HistoryMaps;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.StoredBlob;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code gc --history}: the gc of the drop-in's finished-job history blobs ({@code jobinfo-dropin.history}), one run
 * per history map ({@link HistoryMaps#ALL}) over its sub-namespace {@code <namespace>/history/<map>}. The protocol is
 * the drop-in's own: a blob whose job id has an entry in the map is kept, whatever the entry holds (the values are
 * SeaTunnel's, never read: {@link GarbageCollector#presenceOnly()}); each delete claims the id with its lock in the
 * map's claims map ({@link HistoryMaps#claimsMap}), which the members' moves hold from their blob write to their
 * reference write, and checks under it that the id has no entry ({@code BlobDeletion}).
 */
final class HistoryGc {

    /** How long a delete waits for an id's claim lock that a member's move or delete holds. */
    static final long CLAIM_WAIT_MILLIS = 10_000;

    private HistoryGc() {
    }

    /**
     * One history map's run: its store's id and the report, or, for a map that does not exist on the cluster (not
     * looked at without {@code --force}), no report and the number of blobs its sub-namespace holds.
     */
    @AutoValue
    abstract static class Run {
        static Run of(String storeId, @Nullable GcReport report, long blobsOfMissingMap) {
            return new AutoValue_HistoryGc_Run(storeId, report, blobsOfMissingMap);
        }

        abstract String storeId();

        /** The map's report, or {@code null} for a map that does not exist on the cluster. */
        @Nullable
        abstract GcReport report();

        abstract long blobsOfMissingMap();
    }

    /**
     * The run of each history map, in {@link HistoryMaps#ALL}'s order.
     *
     * @param force whether to look at (and delete from) a map that does not exist on the cluster: without it such a
     *              map is not looked at (and never created), and a deleting run refuses while its blobs are there
     * @throws OpsException a store cannot be opened or listed (exit 3), or a deleting run without {@code force} finds
     *                      a map missing while its blobs are there (exit 2, checked for every map first: nothing
     *                      deleted)
     */
    static Map<String, Run> run(OpsSession session, ConnectionOptions connection, Duration grace,
            boolean delete, boolean force, IncidentLog incidents, Duration incidentWindow,
            Consumer<StoredBlob> progress) {
        JobInfoStorageConfig main = OpsSession.readStorageConfig(connection);
        Map<String, JobInfoStore> stores = new LinkedHashMap<>();
        try {
            Map<String, Long> missing = new LinkedHashMap<>();
            for (String name : HistoryMaps.ALL) {
                JobInfoStore store = open(HistoryMaps.storageOf(main, name), connection);
                stores.put(name, store);
                // before any getMap, which would create it
                if (!force && !OpsSession.mapExists(session.client(), name)) {
                    long blobs = NamespaceClaim.jobsOnly(store.list()).stream().filter(b -> !b.incomplete()).count();
                    if (blobs > 0 && delete) {
                        throw refusal(session, store, name, blobs);
                    }
                    missing.put(name, blobs);
                }
            }
            Map<String, Run> reports = new LinkedHashMap<>();
            for (Map.Entry<String, JobInfoStore> e : stores.entrySet()) {
                String name = e.getKey();
                if (missing.containsKey(name)) {
                    reports.put(name, Run.of(e.getValue().storeId(), null, missing.get(name)));
                    continue;
                }
                IMap<Long, Object> map = session.client().getMap(name);
                reports.put(name, Run.of(e.getValue().storeId(), new GarbageCollector(map, e.getValue(), grace)
                        .presenceOnly()
                        .claims(new LockClaims(session.client(), HistoryMaps.claimsMap(name), name,
                                map::containsKey, CLAIM_WAIT_MILLIS))
                        .holdOnIncidents(incidents, incidentWindow).run(delete, progress), -1));
            }
            return reports;
        } catch (JobInfoStoreException e) {
            throw new OpsException(ExitCodes.UNREACHABLE, "listing a history store failed: " + e.getMessage(), e);
        } finally {
            for (JobInfoStore store : stores.values()) {
                try {
                    store.close();
                } catch (JobInfoStoreException | RuntimeException ignored) {
                    // best effort: the work is done
                }
            }
        }
    }

    private static JobInfoStore open(JobInfoStorageConfig sub, ConnectionOptions connection) {
        try {
            return JobInfoStores.open(sub);
        } catch (JobInfoStoreException | RuntimeException e) {
            throw new OpsException(ExitCodes.UNREACHABLE, "the " + sub.type() + " history store " + sub.namespace()
                    + " of " + connection.storageConfig + " cannot be opened: " + e.getMessage()
                    + "; check that it is reachable and its jobinfo-storage settings", e);
        }
    }

    /**
     * A history map that does not exist on the cluster while its blobs are there is far more often a wrong
     * {@code --cluster-name} than history that all expired (an existing empty map is that, and is accepted).
     *
     * @return exit 2, naming the map, the cluster and {@code --force}
     */
    private static OpsException refusal(OpsSession session, JobInfoStore store, String name, long blobs) {
        return new OpsException(ExitCodes.USAGE, "refusing to delete: the history map '" + name + "' does not"
                + " exist on cluster '" + session.client().getConfig().getClusterName() + "' while store "
                + store.storeId() + " (" + store.location(0).parent() + ") holds "
                + blobs + " blob(s), so every one of them would be deleted; nothing was deleted. Check"
                + " --cluster-name and --address; if the cluster really has no history (restarted without"
                + " persistence), rerun with --force");
    }
}
