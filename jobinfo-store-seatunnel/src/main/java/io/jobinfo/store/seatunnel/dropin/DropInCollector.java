package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.metering.MeteredJobInfoStore;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import io.prometheus.client.SummaryMetricFamily;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * The drop-in's meters as a Prometheus simpleclient {@link Collector} in {@link CollectorRegistry#defaultRegistry},
 * the registry SeaTunnel 2.3.8 serves at {@code /hazelcast/rest/instance/metrics}. One collector per JVM (a JVM may
 * run several members: each member's samples carry its {@code address}); values are read at each scrape. Named like
 * SeaTunnel's own metrics (lower-case with underscores, labels {@code cluster} and {@code address} first) under the
 * prefix {@value #PREFIX}; counters follow Prometheus' convention ({@code _total}); the store's Micrometer timers
 * become summaries in seconds ({@code _count}, {@code _sum}, and {@code _max} as a gauge).
 *
 * <p>Only {@link DropInTelemetry} refers to this class, after checking that the Prometheus client is there (this class
 * extends one of its classes). The list of names is docs/operations.md's.
 */
final class DropInCollector extends Collector implements Collector.Describable {

    static final String PREFIX = "jobinfo_store_";

    /** Counters: the {@link DropInMetrics#snapshot()} key, the metric name (without {@code _total}) and its help. */
    private static final String[][] COUNTERS = {
            {"moved", "moved", "Jobs whose map value this member replaced by a reference to the store"},
            {"moveFailures", "move_failures", "Store writes of a move that failed (the job stays inline; retried)"},
            {"notOffloadable", "not_offloadable", "Map values this member found that it cannot move"},
            {"blockedByMemberWithoutPlugin", "moves_blocked",
                    "Moves held back because a member without the plugin is in the cluster"},
            {"blobsDeleted", "blobs_deleted", "Blobs of ended jobs this member deleted"},
            {"deleteFailures", "delete_failures", "Blob deletes that failed (retried, never lost)"},
            {"gcRuns", "gc_runs", "Garbage collections of orphan blobs this member ran (the master runs them)"},
            {"gcDeleted", "gc_deleted", "Orphan blobs deleted by this member's garbage collections"},
            {"reads", "reads", "Jobs this member read back through the drop-in"},
            {"cacheHits", "cache_hits", "Reads answered by this member's cache"},
            {"readRetries", "read_retries", "Store reads retried after a failure"},
            {"readTimeouts", "read_timeouts", "Reads whose caller stopped waiting while the store had not answered"},
            {"readFailures", "read_failures", "Reads that failed (the job could not be read)"},
            {"storeCalls", "calls", "Store calls made by this member"},
            {"storeCallsOnPartitionThreads", "calls_on_partition_threads",
                    "Store calls made on a Hazelcast partition thread (0 by design)"},
            {"historyMoved", "history_moved", "Finished jobs' history values this member replaced by a reference"},
            {"historyMoveFailures", "history_move_failures",
                    "History moves that failed (the value stays inline; the next sweep tries again)"},
            {"historyBlobsDeleted", "history_blobs_deleted",
                    "History blobs deleted after an expiry, a removal or a newer value, and by gc"},
            {"historyRemovedOverBound", "history_removed_over_bound",
                    "Finished jobs removed from the history maps because more than history-max-retained were kept"},
    };

    /** Gauges: the {@link DropInMetrics#snapshot()} key, the metric name and its help. */
    private static final String[][] GAUGES = {
            {"pendingMoves", "pending_moves", "Inline jobs waiting to be moved to the store"},
            {"inlineOwned", "inline_owned",
                    "Inline jobs this member owned at its last sweep (-1 in passive mode, which reads none)"},
            {"deletesHeld", "deletes_held",
                    "1 while this member holds every blob delete (its view of the map may be partial), else 0"},
            {"badValues", "bad_values",
                    "Job ids whose value in engine_runningJobInfo is not SeaTunnel's JobInfo (left alone, logged once)"},
    };

    static final String INFO = PREFIX + "dropin_info";
    static final String OPERATIONS = PREFIX + "operations_seconds";
    static final String BYTES = PREFIX + "bytes";

    private static final List<String> MEMBER_LABELS = Collections.unmodifiableList(Arrays.asList("cluster", "address"));

    private static final Set<DropInTelemetry.Member> MEMBERS = new CopyOnWriteArraySet<>();
    private static DropInCollector registered;

    private DropInCollector() {}

    /** Adds {@code member}'s meters, registering the collector in the default registry with the first member. */
    static synchronized void add(DropInTelemetry.Member member) {
        if (registered == null) {
            registered = new DropInCollector().register(CollectorRegistry.defaultRegistry);
        }
        MEMBERS.add(member);
    }

    /** Removes {@code member}'s meters, and the collector with the last member. */
    static synchronized void remove(DropInTelemetry.Member member) {
        MEMBERS.remove(member);
        if (MEMBERS.isEmpty() && registered != null) {
            CollectorRegistry.defaultRegistry.unregister(registered);
            registered = null;
        }
    }

    @Override
    public List<MetricFamilySamples> describe() {
        return families(Collections.<DropInTelemetry.Member>emptySet());
    }

    @Override
    public List<MetricFamilySamples> collect() {
        return families(MEMBERS);
    }

    /** Adds one sample to a family. */
    private interface Sample<F> {
        void add(F family, List<String> labelValues, double value);
    }

    /**
     * One family per spec ({@code {snapshot key, name after the prefix, help}}), made by {@code create} from name and
     * help, with a sample per member: the member's value under the key, 0 when it has none.
     */
    private static <F extends MetricFamilySamples> void perMember(List<MetricFamilySamples> families, String[][] specs,
            Set<DropInTelemetry.Member> members, List<Map<String, Long>> snapshots,
            BiFunction<String, String, F> create, Sample<F> sample) {
        for (String[] spec : specs) {
            F family = create.apply(PREFIX + spec[1], spec[2]);
            int i = 0;
            for (DropInTelemetry.Member m : members) {
                Long v = snapshots.get(i++).get(spec[0]);
                sample.add(family, values(m), v == null ? 0 : v);
            }
            families.add(family);
        }
    }

    private static List<MetricFamilySamples> families(Set<DropInTelemetry.Member> members) {
        List<MetricFamilySamples> families = new ArrayList<>();
        GaugeMetricFamily info = new GaugeMetricFamily(INFO, "The jobinfo-store drop-in on this member: its mode and"
                + " store (always 1)", labels("mode", "backend", "store"));
        for (DropInTelemetry.Member m : members) {
            info.addMetric(values(m, m.mode(), m.backend(), m.storeId()), 1);
        }
        families.add(info);
        List<Map<String, Long>> snapshots = new ArrayList<>();
        for (DropInTelemetry.Member m : members) {
            snapshots.add(m.metrics().snapshot());
        }
        perMember(families, COUNTERS, members, snapshots,
                (name, help) -> new CounterMetricFamily(name, help, MEMBER_LABELS), CounterMetricFamily::addMetric);
        perMember(families, GAUGES, members, snapshots,
                (name, help) -> new GaugeMetricFamily(name, help, MEMBER_LABELS), GaugeMetricFamily::addMetric);
        SummaryMetricFamily operations = new SummaryMetricFamily(OPERATIONS, "Store calls by backend, store,"
                + " operation and outcome: count and total time in seconds",
                labels("backend", "store", "operation", "outcome"));
        GaugeMetricFamily operationsMax = new GaugeMetricFamily(OPERATIONS + "_max", "The longest store call of the"
                + " last minute by backend, store, operation and outcome, in seconds",
                labels("backend", "store", "operation", "outcome"));
        SummaryMetricFamily bytes = new SummaryMetricFamily(BYTES, "Bytes written (create: envelope) and read"
                + " (read: verified payload) by backend, store and operation: count and total",
                labels("backend", "store", "operation"));
        for (DropInTelemetry.Member m : members) {
            for (Timer t : m.meters().find(MeteredJobInfoStore.OPERATIONS).timers()) {
                List<String> v = values(m, tag(t.getId().getTag("backend")), tag(t.getId().getTag("store")),
                        tag(t.getId().getTag("operation")), tag(t.getId().getTag("outcome")));
                operations.addMetric(v, t.count(), t.totalTime(TimeUnit.SECONDS));
                operationsMax.addMetric(v, t.max(TimeUnit.SECONDS));
            }
            for (DistributionSummary s : m.meters().find(MeteredJobInfoStore.BYTES).summaries()) {
                bytes.addMetric(values(m, tag(s.getId().getTag("backend")), tag(s.getId().getTag("store")),
                        tag(s.getId().getTag("operation"))), s.count(), s.totalAmount());
            }
        }
        families.add(operations);
        families.add(operationsMax);
        families.add(bytes);
        return families;
    }

    private static String tag(String value) {
        return value == null ? "" : value;
    }

    private static List<String> labels(String... more) {
        List<String> names = new ArrayList<>(MEMBER_LABELS);
        names.addAll(Arrays.asList(more));
        return names;
    }

    private static List<String> values(DropInTelemetry.Member m, String... more) {
        List<String> values = new ArrayList<>();
        values.add(m.cluster());
        values.add(m.address());
        values.addAll(Arrays.asList(more));
        return values;
    }
}
