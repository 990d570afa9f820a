package io.jobinfo.store.seatunnel.dropin;

import com.google.auto.value.AutoValue;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The drop-in's meters in SeaTunnel's own telemetry: when {@code seatunnel.engine.telemetry.metric.enabled} is
 * {@code true}, SeaTunnel 2.3.8 serves the Prometheus simpleclient's {@code CollectorRegistry.defaultRegistry} at
 * {@code /hazelcast/rest/instance/metrics} (and {@code /openmetrics}) on the member port, and the drop-in adds its
 * counters, gauges and store timers there ({@link DropInCollector}; names and labels in docs/operations.md), labelled
 * with {@code cluster} and {@code address} like SeaTunnel's own metrics.
 *
 * <p>This class names no Prometheus type: a member without SeaTunnel's Prometheus client (an engine older than its
 * telemetry) loads it, finds the client missing and goes on without it. With telemetry off nothing is registered.
 *
 * <p>Failure: {@link #register} never throws; it returns a message for the caller to log when the meters cannot be
 * added.
 */
final class DropInTelemetry {

    /** The class of SeaTunnel's Prometheus client that must be there (unrelocated: SeaTunnel's own). */
    static final String REGISTRY_CLASS = "io.prometheus.client.CollectorRegistry";

    private DropInTelemetry() {}

    /** What one member exports: its labels and where its values are read at each scrape. */
    @AutoValue
    abstract static class Member {
        static Member of(String cluster, String address, String mode, String backend, String storeId,
                DropInMetrics metrics, MeterRegistry meters) {
            return new AutoValue_DropInTelemetry_Member(cluster, address, mode, backend, storeId, metrics, meters);
        }

        abstract String cluster();

        abstract String address();

        abstract String mode();

        abstract String backend();

        abstract String storeId();

        abstract DropInMetrics metrics();

        abstract MeterRegistry meters();
    }

    /** Whether {@code loader} sees SeaTunnel's Prometheus client; never loads more than the one class. */
    static boolean prometheusPresent(ClassLoader loader) {
        try {
            Class.forName(REGISTRY_CLASS, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Adds {@code member}'s meters to the Prometheus default registry when {@code enabled} (SeaTunnel's telemetry is
     * on) and the Prometheus client is there.
     *
     * @return null when the meters were added or telemetry is off, else why they were not (to log)
     */
    static String register(boolean enabled, Member member) {
        if (!enabled) {
            return null;
        }
        if (!prometheusPresent(DropInTelemetry.class.getClassLoader())) {
            return "SeaTunnel's telemetry is on but this member has no Prometheus client (" + REGISTRY_CLASS
                    + "); the drop-in's meters stay in JMX only";
        }
        try {
            DropInCollector.add(member);
            return null;
        } catch (LinkageError | RuntimeException e) {
            return "the drop-in's meters could not be added to SeaTunnel's telemetry: " + e
                    + "; they stay in JMX only";
        }
    }

    /** Takes {@code member}'s meters out of the registry if they are there; never throws. */
    static void unregister(Member member) {
        if (member == null || !prometheusPresent(DropInTelemetry.class.getClassLoader())) {
            return;
        }
        try {
            DropInCollector.remove(member);
        } catch (LinkageError | RuntimeException ignored) {
            // the member is going away
        }
    }
}
