package io.jobinfo.store.lifecycle;


import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapPartitionLostEvent;
import com.hazelcast.map.listener.MapPartitionLostListener;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a member for what can lose job map entries silently, and records it cluster-wide in the
 * {@link IncidentLog}: a lost partition of the job map or of its fencing maps ({@code <map>.epoch},
 * {@code <map>.fence}), seen through Hazelcast's map partition-lost listener (every replica of the partition was
 * lost: more members left at once than the map has backups), and a healed split brain, seen through the lifecycle
 * event {@code MERGED} on the members that merged into the other cluster.
 *
 * <p>Without it, lost pointers silently vanish from {@code restoreAll}, and GC later deletes their blobs as orphans,
 * which makes the loss permanent. With it, GC holds its deletes until an operator has rebuilt the pointers from the
 * store and acknowledged (see {@link IncidentLog}). Each {@link io.jobinfo.store.service.RunningJobInfoRegistry} installs one for its map;
 * a member without a registry can call {@link #install}.
 *
 * <p>Recording runs on a thread of its own, retried for about 30 s when the cluster is still rebalancing; a record
 * that still cannot be written is logged at ERROR (the loss itself is also logged at ERROR when seen). Hazelcast
 * documents that partition-lost events are best effort (a member that dies while detecting may not publish); every
 * member with a monitor records the same event, so one survivor suffices.
 */
public final class PartitionLossMonitor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionLossMonitor.class);

    private final HazelcastInstance hazelcast;
    private final IncidentLog log;
    private final List<IMap<?, ?>> maps = new ArrayList<>();
    private final List<UUID> registrations = new ArrayList<>();
    private final UUID lifecycleRegistration;
    private final ExecutorService writer;

    private PartitionLossMonitor(HazelcastInstance hazelcast, String jobMapName) {
        this.hazelcast = hazelcast;
        this.log = new IncidentLog(hazelcast, jobMapName);
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jobinfo-incident-log-" + jobMapName);
            t.setDaemon(true);
            return t;
        });
        MapPartitionLostListener listener = this::partitionLost;
        for (String name : new String[] {jobMapName, jobMapName + ".epoch", jobMapName + ".fence"}) {
            IMap<?, ?> map = hazelcast.getMap(name);
            maps.add(map);
            registrations.add(map.addPartitionLostListener(listener));
        }
        this.lifecycleRegistration = hazelcast.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                LOG.error("this member's cluster merged into another after a split brain: entries of map {} may"
                        + " have been dropped by the merge policy; GC holds its deletes until an operator"
                        + " acknowledges (jobinfo-store rebuild-pointers, then gc --acknowledge-incidents)",
                        jobMapName);
                write(new ClusterIncident(ClusterIncident.Kind.MERGED, "", -1, Instant.now(), localMember()));
            }
        });
    }

    /**
     * Starts watching for lost partitions of {@code jobMapName} (and its fencing maps) and for merges, on this
     * member. Call {@link #close()} to stop.
     */
    public static PartitionLossMonitor install(HazelcastInstance hazelcast, String jobMapName) {
        return new PartitionLossMonitor(Objects.requireNonNull(hazelcast, "hazelcast"),
                Objects.requireNonNull(jobMapName, "jobMapName"));
    }

    /** The log this monitor writes. */
    public IncidentLog log() {
        return log;
    }

    private void partitionLost(MapPartitionLostEvent event) {
        LOG.error("partition {} of map {} was lost (every replica): its entries are gone; GC holds its deletes"
                + " until an operator rebuilds the pointers from the store and acknowledges (jobinfo-store"
                + " rebuild-pointers, then gc --acknowledge-incidents)", event.getPartitionId(), event.getName());
        write(new ClusterIncident(ClusterIncident.Kind.PARTITION_LOST, event.getName(), event.getPartitionId(),
                Instant.now(), localMember()));
    }

    private String localMember() {
        try {
            return String.valueOf(hazelcast.getCluster().getLocalMember().getAddress());
        } catch (RuntimeException e) {
            return "unknown member";
        }
    }

    private void write(ClusterIncident incident) {
        try {
            writer.execute(() -> {
                RuntimeException last = null;
                for (int attempt = 0; attempt < 60; attempt++) {
                    try {
                        log.record(incident);
                        return;
                    } catch (RuntimeException e) {
                        last = e;
                        if (!hazelcast.getLifecycleService().isRunning()) {
                            break;
                        }
                        sleep(500);
                    }
                }
                LOG.error("could not record {} in {}: {}", incident.describe(), IncidentLog.class.getSimpleName(),
                        last);
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.error("monitor closed; not recorded: {}", incident.describe());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops watching; records being written are finished (for at most a few seconds). */
    @Override
    public void close() {
        for (int i = 0; i < maps.size(); i++) {
            try {
                maps.get(i).removePartitionLostListener(registrations.get(i));
            } catch (RuntimeException e) {
                LOG.debug("removing a partition-lost listener failed (instance down?): {}", e.toString());
            }
        }
        try {
            hazelcast.getLifecycleService().removeLifecycleListener(lifecycleRegistration);
        } catch (RuntimeException e) {
            LOG.debug("removing the lifecycle listener failed (instance down?): {}", e.toString());
        }
        writer.shutdown();
        try {
            writer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
