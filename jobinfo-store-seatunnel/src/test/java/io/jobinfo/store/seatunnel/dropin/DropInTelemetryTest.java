package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.metering.MeteredJobInfoStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drop-in's meters in SeaTunnel's Prometheus registry ({@link DropInTelemetry}): added with telemetry on, named
 * and labelled as docs/operations.md lists them, absent with telemetry off, gone when the member shuts down, and a
 * member without the Prometheus client starts without them (no NoClassDefFoundError). The engine's own endpoint is
 * seatunnel-it's (DropInLocalStoreTest).
 */
class DropInTelemetryTest {

    static final String[] LABELS = {"cluster", "address"};

    static DropInTelemetry.Member member(String address, DropInMetrics metrics, MeterRegistry meters) {
        return DropInTelemetry.Member.of("c1", address, "active", "local", "0155aa8a", metrics, meters);
    }

    static Double sample(String name, String... labelValues) {
        return CollectorRegistry.defaultRegistry.getSampleValue(name, LABELS, labelValues);
    }

    @Test
    void withTelemetryOnEveryMemberOfTheJvmIsInTheDefaultRegistryUntilItShutsDown() {
        DropInMetrics one = new DropInMetrics();
        one.moved.set(3);
        one.readTimeouts.set(1);
        one.inlineOwned.set(2);
        one.pendingMoves(() -> 5);
        MeterRegistry meters = new SimpleMeterRegistry();
        Timer.builder(MeteredJobInfoStore.OPERATIONS).tag("backend", "local").tag("store", "0155aa8a")
                .tag("operation", "create").tag("outcome", "success").register(meters)
                .record(250, TimeUnit.MILLISECONDS);
        DropInTelemetry.Member a = member("127.0.0.1:5801", one, meters);
        DropInMetrics two = new DropInMetrics();
        two.blobsDeleted.set(7);
        DropInTelemetry.Member b = member("127.0.0.1:5802", two, new SimpleMeterRegistry());
        try {
            assertThat(DropInTelemetry.register(true, a)).isNull();
            assertThat(DropInTelemetry.register(true, b)).isNull();

            assertThat(sample("jobinfo_store_moved_total", "c1", "127.0.0.1:5801")).isEqualTo(3.0);
            assertThat(sample("jobinfo_store_moved_total", "c1", "127.0.0.1:5802")).isEqualTo(0.0);
            assertThat(sample("jobinfo_store_blobs_deleted_total", "c1", "127.0.0.1:5802")).isEqualTo(7.0);
            assertThat(sample("jobinfo_store_read_timeouts_total", "c1", "127.0.0.1:5801")).isEqualTo(1.0);
            assertThat(sample("jobinfo_store_pending_moves", "c1", "127.0.0.1:5801")).isEqualTo(5.0);
            assertThat(sample("jobinfo_store_inline_owned", "c1", "127.0.0.1:5801")).isEqualTo(2.0);
            assertThat(sample("jobinfo_store_deletes_held", "c1", "127.0.0.1:5801")).isEqualTo(0.0);
            assertThat(CollectorRegistry.defaultRegistry.getSampleValue("jobinfo_store_dropin_info",
                    new String[] {"cluster", "address", "mode", "backend", "store"},
                    new String[] {"c1", "127.0.0.1:5801", "active", "local", "0155aa8a"})).isEqualTo(1.0);
            String[] op = {"cluster", "address", "backend", "store", "operation", "outcome"};
            String[] create = {"c1", "127.0.0.1:5801", "local", "0155aa8a", "create", "success"};
            assertThat(CollectorRegistry.defaultRegistry.getSampleValue("jobinfo_store_operations_seconds_count", op,
                    create)).isEqualTo(1.0);
            assertThat(CollectorRegistry.defaultRegistry.getSampleValue("jobinfo_store_operations_seconds_sum", op,
                    create)).isBetween(0.249, 0.251);

            // values are read at each scrape
            one.moved.incrementAndGet();
            assertThat(sample("jobinfo_store_moved_total", "c1", "127.0.0.1:5801")).isEqualTo(4.0);

            // every family is named with the prefix and has a help text
            List<String> names = new ArrayList<>();
            for (Collector.MetricFamilySamples f : Collections.list(CollectorRegistry.defaultRegistry
                    .metricFamilySamples())) {
                if (f.name.startsWith("jobinfo")) {
                    names.add(f.name);
                    assertThat(f.help).as(f.name).isNotBlank();
                }
            }
            assertThat(names).allMatch(n -> n.matches("jobinfo_store_[a-z_]+")).hasSize(27).contains("jobinfo_store_bad_values",
                    "jobinfo_store_history_moved", "jobinfo_store_history_blobs_deleted",
                    "jobinfo_store_history_removed_over_bound");

            DropInTelemetry.unregister(a);
            assertThat(sample("jobinfo_store_moved_total", "c1", "127.0.0.1:5801")).isNull();
            assertThat(sample("jobinfo_store_blobs_deleted_total", "c1", "127.0.0.1:5802")).isEqualTo(7.0);
        } finally {
            DropInTelemetry.unregister(a);
            DropInTelemetry.unregister(b);
        }
        assertThat(sample("jobinfo_store_blobs_deleted_total", "c1", "127.0.0.1:5802")).isNull();
    }

    @Test
    void withTelemetryOffNothingIsRegistered() {
        DropInMetrics metrics = new DropInMetrics();
        metrics.moved.set(1);
        DropInTelemetry.Member m = member("127.0.0.1:5803", metrics, new SimpleMeterRegistry());
        assertThat(DropInTelemetry.register(false, m)).isNull();
        assertThat(sample("jobinfo_store_moved_total", "c1", "127.0.0.1:5803")).isNull();
        DropInTelemetry.unregister(m);
    }

    /** A member of an engine without the Prometheus client (older than SeaTunnel's telemetry) starts without it. */
    @Test
    void withoutThePrometheusClientTheDropInSaysSoAndGoesOn() throws Exception {
        ClassLoader parent = DropInTelemetryTest.class.getClassLoader();
        ClassLoader withoutPrometheus = new ClassLoader(parent) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                synchronized (getClassLoadingLock(name)) {
                    if (name.startsWith("io.prometheus.")) {
                        throw new ClassNotFoundException(name);
                    }
                    Class<?> c = findLoadedClass(name);
                    if (c == null && (name.equals(DropInTelemetry.class.getName())
                            || name.equals(DropInCollector.class.getName()))) {
                        // these two from this loader, so that what they load comes through it
                        try (InputStream in = parent.getResourceAsStream(name.replace('.', '/') + ".class")) {
                            byte[] bytes = in.readAllBytes();
                            c = defineClass(name, bytes, 0, bytes.length);
                        } catch (IOException e) {
                            throw new ClassNotFoundException(name, e);
                        }
                    }
                    if (c == null) {
                        return super.loadClass(name, resolve);
                    }
                    if (resolve) {
                        resolveClass(c);
                    }
                    return c;
                }
            }
        };
        Class<?> telemetry = withoutPrometheus.loadClass(DropInTelemetry.class.getName());
        assertThat(telemetry.getClassLoader()).isSameAs(withoutPrometheus);
        Method present = telemetry.getDeclaredMethod("prometheusPresent", ClassLoader.class);
        present.setAccessible(true);
        assertThat((Boolean) present.invoke(null, withoutPrometheus)).isFalse();

        Method register = telemetry.getDeclaredMethod("register", boolean.class, DropInTelemetry.Member.class);
        register.setAccessible(true);
        DropInTelemetry.Member m = member("127.0.0.1:5804", new DropInMetrics(), new SimpleMeterRegistry());
        assertThat((String) register.invoke(null, false, m)).isNull();
        assertThat((String) register.invoke(null, true, m)).contains("no Prometheus client")
                .contains(DropInTelemetry.REGISTRY_CLASS);
        Method unregister = telemetry.getDeclaredMethod("unregister", DropInTelemetry.Member.class);
        unregister.setAccessible(true);
        unregister.invoke(null, m);
    }
}
