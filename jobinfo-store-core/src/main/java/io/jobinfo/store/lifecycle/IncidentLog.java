package io.jobinfo.store.lifecycle;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The cluster-wide record of incidents that may have lost job map entries ({@link ClusterIncident}): a small
 * Hazelcast map {@code <job map>.incidents} beside the job map (no CP subsystem needed). Members write it
 * ({@link PartitionLossMonitor}); anyone connected to the cluster, a client such as the {@code jobinfo-store} CLI
 * included, reads it. Keys: {@code lost:<map>:<partition>} (the latest loss of that partition),
 * {@code merged:<member>} and {@code acknowledged}.
 *
 * <p>An incident is <em>open</em> if it was detected within the window and after the last acknowledgement. GC
 * deletes nothing while one is open: the blobs of lost pointers look exactly like orphans, and deleting them would
 * make the loss permanent. The operator rebuilds the lost pointers ({@code jobinfo-store rebuild-pointers}), then
 * acknowledges.
 *
 * <p>The log itself is an ordinary map with one synchronous backup; an incident that loses the log's own partition
 * at the same time loses that record, but every later loss is recorded anew. A cluster call that fails throws
 * Hazelcast's runtime exception; callers that must not proceed blindly (GC) treat that as "open".
 */
public final class IncidentLog {

    /** Default window in which an incident holds GC: 7 days. */
    public static final Duration DEFAULT_WINDOW = Duration.ofDays(7);
    static final String ACK_KEY = "acknowledged";

    private final IMap<String, ClusterIncident> map;

    public IncidentLog(HazelcastInstance hazelcast, String jobMapName) {
        this.map = hazelcast.getMap(mapNameFor(jobMapName));
    }

    /** The name of the log of job map {@code jobMapName}. */
    public static String mapNameFor(String jobMapName) {
        return jobMapName + ".incidents";
    }

    /** Records an incident (the latest of each partition and member is kept). */
    public void record(ClusterIncident incident) {
        String key;
        switch (incident.kind()) {
            case PARTITION_LOST:
                key = "lost:" + incident.mapName() + ":" + incident.partitionId();
                break;
            case MERGED:
                key = "merged:" + incident.member();
                break;
            default:
                throw new IllegalArgumentException("use acknowledge() to acknowledge");
        }
        map.set(key, incident);
    }

    /** Every recorded incident, oldest first (acknowledged ones included; not the acknowledgement itself). */
    public List<ClusterIncident> all() {
        List<ClusterIncident> out = new ArrayList<>();
        for (ClusterIncident c : map.values()) {
            if (c.kind() != ClusterIncident.Kind.ACKNOWLEDGED) {
                out.add(c);
            }
        }
        out.sort(Comparator.comparing(ClusterIncident::detectedAt));
        return out;
    }

    /** The last acknowledgement, or {@code null}. */
    public ClusterIncident acknowledgement() {
        return map.get(ACK_KEY);
    }

    /** Incidents detected within {@code window} before {@code now} and after the last acknowledgement. */
    public List<ClusterIncident> open(Duration window, Instant now) {
        Objects.requireNonNull(window, "window");
        ClusterIncident ack = acknowledgement();
        Instant from = now.minus(window);
        List<ClusterIncident> out = new ArrayList<>();
        for (ClusterIncident c : all()) {
            if (!c.detectedAt().isBefore(from) && (ack == null || c.detectedAt().isAfter(ack.detectedAt()))) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Acknowledges every incident detected up to {@code now} (GC deletes again): call it after the lost pointers
     * were rebuilt, or once it is known that nothing was lost.
     *
     * @param by who acknowledged, for the record
     */
    public void acknowledge(Instant now, String by) {
        map.set(ACK_KEY, new ClusterIncident(ClusterIncident.Kind.ACKNOWLEDGED, "", -1, now, by));
    }
}
