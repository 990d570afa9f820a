package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.ReplicaMigrationEvent;
import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.lifecycle.PartitionLossMonitor;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

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
 * {@code isClusterSafe} asks every member, which made each delete cost a cluster round trip (3,000 deletes of
 * history blobs took five minutes on a 3-member cluster). A positive answer is therefore trusted for
 * {@value #SAFE_FOR_MILLIS} ms unless a partition migration or a membership change is seen meanwhile (a migration
 * listener and a membership listener of this member count them): backups fall out of sync only through those (the
 * maps' backups are synchronous), and the member count check above catches a member lost without a migration yet.
 * A negative answer is never cached.
 *
 * <p>Failure: if the incident log cannot be read, that is a reason to hold too.
 */
final class ClusterViewGuard implements AutoCloseable {

    /** How long a positive {@code isClusterSafe} is trusted without a migration or membership change. */
    static final long SAFE_FOR_MILLIS = 1000;

    private final HazelcastInstance instance;
    private final String mapName;
    private final long windowMillis;
    private final IncidentLog incidents;
    private final PartitionLossMonitor lossMonitor;
    private final UUID lifecycleRegistration;
    private volatile boolean merging;
    private final BooleanSupplier clusterSafe;
    private final long safeForNanos;
    /** Migrations and membership changes seen so far; a cached positive answer is valid for one count only. */
    private final AtomicLong changes = new AtomicLong();
    private final UUID migrationRegistration;
    private final UUID membershipRegistration;
    /** The last positive answer of {@link #clusterSafe}: the count of changes before it and when it was given. */
    private volatile long[] safe;
    private int largestSeen;
    private long largestSeenAt;

    ClusterViewGuard(HazelcastInstance instance, String mapName, long windowMillis) {
        this(instance, mapName, windowMillis, instance.getPartitionService()::isClusterSafe, SAFE_FOR_MILLIS);
    }

    /**
     * With {@code clusterSafe} asked instead of {@code isClusterSafe} directly, its positive answers trusted for
     * {@code safeForMillis} (a test counts the calls over a longer period).
     */
    ClusterViewGuard(HazelcastInstance instance, String mapName, long windowMillis, BooleanSupplier clusterSafe,
                     long safeForMillis) {
        this.instance = instance;
        this.clusterSafe = clusterSafe;
        this.safeForNanos = TimeUnit.MILLISECONDS.toNanos(safeForMillis);
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
        this.migrationRegistration = instance.getPartitionService().addMigrationListener(new MigrationListener() {
            @Override
            public void migrationStarted(MigrationState state) {
                changes.incrementAndGet();
            }

            @Override
            public void migrationFinished(MigrationState state) {
                changes.incrementAndGet();
            }

            @Override
            public void replicaMigrationCompleted(ReplicaMigrationEvent event) {
                changes.incrementAndGet();
            }

            @Override
            public void replicaMigrationFailed(ReplicaMigrationEvent event) {
                changes.incrementAndGet();
            }
        });
        this.membershipRegistration = instance.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                changes.incrementAndGet();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                changes.incrementAndGet();
            }
        });
        observeMembers();
    }

    /**
     * Whether every partition is in sync with its backups: {@code isClusterSafe}, or its last positive answer if that
     * is younger than {@value #SAFE_FOR_MILLIS} ms and no migration or membership change was seen since (the count is
     * taken before the question, so a change during it makes the answer stale at once).
     */
    boolean clusterSafe() {
        long seen = changes.get();
        long now = System.nanoTime();
        long[] last = safe;
        if (last != null && last[0] == seen && now - last[1] < safeForNanos) {
            return true;
        }
        if (!clusterSafe.getAsBoolean()) {
            return false;
        }
        safe = new long[] {seen, now};
        return true;
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
        if (!clusterSafe()) {
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
            instance.getPartitionService().removeMigrationListener(migrationRegistration);
            instance.getCluster().removeMembershipListener(membershipRegistration);
        } catch (RuntimeException e) {
            // the member is going away
        }
    }
}
