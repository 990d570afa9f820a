package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.lifecycle.PartitionLossMonitor;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Says whether this member's view of {@code engine_runningJobInfo} may be partial, so that no blob is deleted on a
 * view that cannot see every job: a missing entry then means "not visible here", not "ended". Deletes (at job end and
 * by gc) wait while {@link #holdReason} names a reason:
 * <ul>
 *   <li>the cluster has fewer members than the most it had within the view window
 *   ({@link DropInSettings#viewWindowMillis()}, 10 minutes by default): a member cut off from the others, or the
 *   survivors of a loss, whose entries may be elsewhere;</li>
 *   <li>a split brain is being merged (lifecycle {@code MERGING} until {@code MERGED} or {@code MERGE_FAILED});</li>
 *   <li>an open incident of the map in the {@link IncidentLog} (a lost partition of the map, a healed split brain),
 *   recorded by the {@link PartitionLossMonitor} this guard installs: held until an operator has resubmitted what was
 *   lost and acknowledged ({@code jobinfo-store gc --map engine_runningJobInfo --acknowledge-incidents}), as on the
 *   library path (gc only: the delete after a job's removal concerns an entry that existed);</li>
 *   <li>the partitions are not in sync with their backups ({@code isClusterSafe} false).</li>
 * </ul>
 * Failure: if the incident log cannot be read, that is a reason to hold too.
 */
final class ClusterViewGuard implements AutoCloseable {

    private final HazelcastInstance instance;
    private final String mapName;
    private final long windowMillis;
    private final IncidentLog incidents;
    private final PartitionLossMonitor lossMonitor;
    private final UUID lifecycleRegistration;
    private volatile boolean merging;
    private int largestSeen;
    private long largestSeenAt;

    ClusterViewGuard(HazelcastInstance instance, String mapName, long windowMillis) {
        this.instance = instance;
        this.mapName = mapName;
        this.windowMillis = windowMillis;
        this.incidents = new IncidentLog(instance, mapName);
        this.lossMonitor = PartitionLossMonitor.install(instance, mapName);
        this.lifecycleRegistration = instance.getLifecycleService().addLifecycleListener(event -> {
            LifecycleEvent.LifecycleState state = event.getState();
            if (state == LifecycleEvent.LifecycleState.MERGING) {
                merging = true;
            } else if (state == LifecycleEvent.LifecycleState.MERGED
                    || state == LifecycleEvent.LifecycleState.MERGE_FAILED) {
                merging = false;
            }
        });
        observeMembers();
    }

    /** Records the current member count; called by {@link #holdReason} and on every sweep. */
    synchronized int observeMembers() {
        int members = instance.getCluster().getMembers().size();
        long now = System.currentTimeMillis();
        if (members >= largestSeen || now - largestSeenAt > windowMillis) {
            largestSeen = members;
            largestSeenAt = now;
        }
        return members;
    }

    /**
     * Why deletes must wait now, or {@code null} if this member's view is whole.
     *
     * @param withIncidents also hold on open incidents (gc: the blob of a lost entry looks like an orphan); the delete
     *                      after a job's removal does not (the entry existed and SeaTunnel removed it), only on a view
     *                      that is partial now
     */
    String holdReason(boolean withIncidents) {
        int members = observeMembers();
        int largest;
        synchronized (this) {
            largest = largestSeen;
        }
        if (members < largest) {
            return "the cluster has " + members + " members, fewer than the " + largest + " it had within the last "
                    + windowMillis / 1000 + " s (" + DropInSettings.VIEW_WINDOW + "): entries may be on members this"
                    + " one cannot see";
        }
        if (merging) {
            return "a split brain is being merged";
        }
        if (!instance.getPartitionService().isClusterSafe()) {
            return "partitions are migrating or not in sync with their backups";
        }
        if (!withIncidents) {
            return null;
        }
        try {
            List<ClusterIncident> open = incidents.open(IncidentLog.DEFAULT_WINDOW, Instant.now());
            if (!open.isEmpty()) {
                return "entries of " + mapName + " may have been lost (" + open + "); resubmit the jobs SeaTunnel"
                        + " lost, then acknowledge with 'jobinfo-store gc --map " + mapName
                        + " --acknowledge-incidents' (docs/seatunnel.md)";
            }
        } catch (RuntimeException e) {
            return "the incident log of " + mapName + " cannot be read (" + e + ")";
        }
        return null;
    }

    @Override
    public void close() {
        try {
            lossMonitor.close();
            instance.getLifecycleService().removeLifecycleListener(lifecycleRegistration);
        } catch (RuntimeException e) {
            // the member is going away
        }
    }
}
