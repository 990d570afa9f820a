package io.jobinfo.store.benchmarks;

import static io.jobinfo.store.benchmarks.SeaTunnelPartitionHoldBenchmark.ALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pieces of the real-engine partition-thread time scenario that need no cluster (it runs in the full report and in
 * {@code benchmarks.jar partition-hold}): its options refuse bad input by name, the harness's JSON goes into
 * {@link Metrics} per round, and the section sets stock and the drop-in side by side (medians of rounds) with the
 * goal's verdict, naming the rows over 1 ms and the phases the interceptor did not see.
 */
class SeaTunnelPartitionHoldSectionTest {

    @Test
    void optionsDefaultToLocalAndRefuseUnsupportedStoresAndBadRoundsByName() {
        BenchOptions d = BenchOptions.parse(new String[] {"report"});
        assertThat(d.partitionHoldStores).containsExactly("local");
        assertThat(d.partitionHoldRounds()).isEqualTo(3);
        BenchOptions o = BenchOptions.parse(new String[] {"partition-hold", "--partition-hold-rounds", "1"});
        assertThat(o.command).isEqualTo("partition-hold");
        assertThat(o.partitionHoldRounds()).isEqualTo(1);
        assertThat(BenchOptions.parse(new String[] {"report", "--partition-hold-stores", "none"})
                .partitionHoldStores).isEmpty();
        assertThat(BenchOptions.parse(new String[] {"report", "--partition-hold-stores", "local,s3,hdfs"})
                .partitionHoldStores).containsExactly("local", "s3", "hdfs");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--partition-hold-stores", "local,gcs"}))
                .hasMessageContaining("--partition-hold-stores: 'gcs' is not supported (supported: local, s3, hdfs,"
                        + " rgw");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--partition-hold-rounds", "three"}))
                .hasMessageContaining("--partition-hold-rounds: 'three' is not a whole number");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--partition-hold-rounds", "51"}))
                .hasMessageContaining("--partition-hold-rounds must be 0..50");
        assertThat(BenchOptions.usage()).contains("partition-hold [options]", "--partition-hold-stores",
                "--partition-hold-rounds");
    }

    @Test
    void theScenarioJsonGoesIntoMetricsAndUnseenOperationsAreLeftOut() throws Exception {
        var result = new ObjectMapper().readTree("""
                {"variants": {
                  "stock": {"phases": {
                    "submit": {"all": {"count": 63, "medianMicros": 40.0, "p99Micros": 900.0, "maxMicros": 950.0},
                               "operations": {"put/inline": {"count": 63, "medianMicros": 40.0, "p99Micros": 900.0,
                                                             "maxMicros": 950.0}},
                               "offPartitionThread": 0},
                    "restore": {"all": {"count": 0, "medianMicros": 0.0, "p99Micros": 0.0, "maxMicros": 0.0},
                                "operations": {}, "offPartitionThread": 0}},
                    "masterKill": {"jobs": 3, "notRunning": {}}},
                  "dropin": {"phases": {
                    "submit": {"all": {"count": 189, "medianMicros": 20.0, "p99Micros": 700.0, "maxMicros": 800.0},
                               "operations": {"get/inline": {"count": 63, "medianMicros": 12.0, "p99Micros": 30.0,
                                                             "maxMicros": 41.0}},
                               "offPartitionThread": 2}},
                    "masterKill": {"jobs": 3, "notRunning": {"42": "FAILED"}}}}}""");
        Metrics m = new Metrics();
        BenchOptions o = BenchOptions.parse(new String[] {"partition-hold"});
        SeaTunnelPartitionHoldBenchmark b = new SeaTunnelPartitionHoldBenchmark(o, m, Path.of("w"));
        String failure = b.record(result, "local", Path.of("logs"));

        assertThat(m.median(SeaTunnelPartitionHoldBenchmark.key("stock", "submit", "put/inline", "p99Micros")))
                .isEqualTo(900.0);
        assertThat(m.median(SeaTunnelPartitionHoldBenchmark.key("dropin-local", "submit", "get/inline", "count")))
                .isEqualTo(63.0);
        assertThat(m.has(SeaTunnelPartitionHoldBenchmark.key("stock", "restore", "all", "p99Micros"))).isFalse();
        assertThat(failure).contains("dropin: 1 of 3 jobs not RUNNING again after the kill", "logs");
        assertThat(b.notes).anyMatch(n -> n.contains("dropin-local, submit: 2 samples were taken off a partition"));
    }

    @Test
    void aRunOfTheDropInAloneOnAStoreWithAServerGoesUnderThatStoresVariant() throws Exception {
        var result = new ObjectMapper().readTree("""
                {"variants": {
                  "dropin": {"phases": {
                    "jobEnd": {"all": {"count": 60, "medianMicros": 30.0, "p99Micros": 400.0, "maxMicros": 450.0},
                               "operations": {"remove/reference": {"count": 60, "medianMicros": 30.0,
                                                                   "p99Micros": 400.0, "maxMicros": 450.0}},
                               "offPartitionThread": 0}},
                    "masterKill": {"jobs": 3, "notRunning": {}}}}}""");
        Metrics m = new Metrics();
        BenchOptions o = BenchOptions.parse(new String[] {"partition-hold", "--partition-hold-stores", "local,s3"});
        SeaTunnelPartitionHoldBenchmark b = new SeaTunnelPartitionHoldBenchmark(o, m, Path.of("w"));

        assertThat(b.record(result, "s3", Path.of("logs"))).isNull();
        assertThat(m.median(SeaTunnelPartitionHoldBenchmark.key("dropin-s3", "jobEnd", "remove/reference",
                "p99Micros"))).isEqualTo(400.0);
        assertThat(m.all().keySet()).noneMatch(k -> k.startsWith("partitionHold.stock."));
        String md = SeaTunnelPartitionHoldSection.markdown(m, o, 1, new ArrayList<>());
        assertThat(md).contains("| phase | operation | stock p50 / p99 / max (n) | drop-in, local p50 / p99 / max (n) |"
                + " drop-in, s3 p50 / p99 / max (n) |");
        assertThat(md).contains("- drop-in, s3: worst p99 400 us (job end remove/reference), met; not seen by the"
                + " interceptor, so not judged: submit, get, master-switch restore.");
    }

    @Test
    void sectionQuotesMediansOfRoundsSideBySideAndTheVerdict() {
        BenchOptions o = BenchOptions.parse(new String[] {"partition-hold"});
        assertThat(SeaTunnelPartitionHoldSection.markdown(new Metrics(), o, 0, List.of("Skipped.")))
                .isEqualTo(SeaTunnelPartitionHoldSection.TITLE + "\n\nSkipped.\n\n");

        Metrics m = new Metrics();
        for (double r : new double[] {0.5, 1.0, 2.0}) {
            put(m, "stock", "submit", ALL, 60, 50 * r, 900 * r, 2000 * r);
            put(m, "stock", "submit", "put/inline", 60, 50 * r, 900 * r, 2000 * r);
            put(m, "dropin-local", "submit", ALL, 120, 20 * r, 1200 * r, 2500 * r);
            put(m, "dropin-local", "submit", "put/inline", 60, 50 * r, 1200 * r, 2500 * r);
            put(m, "dropin-local", "submit", "put/reference", 60, 8 * r, 20 * r, 30 * r);
            put(m, "stock", "get", ALL, 60, 30 * r, 400 * r, 500 * r);
            put(m, "stock", "get", "get/inline", 60, 30 * r, 400 * r, 500 * r);
            put(m, "dropin-local", "get", ALL, 60, 3 * r, 6 * r, 9 * r);
            put(m, "dropin-local", "get", "get/reference", 60, 3 * r, 6 * r, 9 * r);
            put(m, "stock", "restore", ALL, 6, 30 * r, 300 * r, 300 * r);
            put(m, "stock", "restore", "get/inline", 6, 30 * r, 300 * r, 300 * r);
        }
        String md = SeaTunnelPartitionHoldSection.markdown(m, o, 3, new ArrayList<>());

        assertThat(md).startsWith(SeaTunnelPartitionHoldSection.TITLE + "\n\n3 round(s)");
        assertThat(md).contains("| phase | operation | stock p50 / p99 / max (n) | drop-in, local p50 / p99 / max (n) |");
        // medians of rounds; an operation a variant did not do is "not seen"
        assertThat(md).contains("| **submit** | every operation | 50 / 900 / 2000 (60) | 20 / 1200 / 2500 (120) |");
        assertThat(md).contains("|  | put/reference (the drop-in's replace by the reference) | not seen | 8.0 / 20 / 30"
                + " (60) |");
        assertThat(md).contains("| **master-switch restore** | every operation | 30 / 300 / 300 (6) | not seen |");
        assertThat(md).contains("- drop-in, local: worst p99 1200 us (submit put/inline), NOT met: submit put/inline"
                + " 1200 us (stock: 900 us); not seen by the interceptor, so not judged: master-switch restore, job"
                + " end.");
        assertThat(md).contains("Not met; not measured: s3, hdfs (not in `--partition-hold-stores`, or its server did"
                + " not start).");
    }

    @Test
    void everyDropInRowUnderOneMillisecondIsMet() {
        BenchOptions o = BenchOptions.parse(new String[] {"partition-hold"});
        Metrics m = new Metrics();
        for (String phase : SeaTunnelPartitionHoldSection.PHASES) {
            for (String op : new String[] {ALL, "get/inline"}) {
                put(m, "stock", phase, op, 10, 100, 999, 1500);
            }
            for (String op : new String[] {ALL, "get/reference"}) {
                put(m, "dropin-local", phase, op, 10, 5, 1000, 1500);
            }
        }
        String md = SeaTunnelPartitionHoldSection.markdown(m, o, 1, new ArrayList<>());
        assertThat(md).contains("- drop-in, local: worst p99 1000 us (submit get/reference), met.\n");
        assertThat(md).contains("Met on the stores measured; not measured: s3, hdfs");
    }

    /** One round's figures of one operation ({@code op}, or the phase's every-operation row). */
    private static void put(Metrics m, String variant, String phase, String op, double n, double p50, double p99,
                            double max) {
        m.add(SeaTunnelPartitionHoldBenchmark.key(variant, phase, op, "count"), "", n);
        m.add(SeaTunnelPartitionHoldBenchmark.key(variant, phase, op, "medianMicros"), "us", p50);
        m.add(SeaTunnelPartitionHoldBenchmark.key(variant, phase, op, "p99Micros"), "us", p99);
        m.add(SeaTunnelPartitionHoldBenchmark.key(variant, phase, op, "maxMicros"), "us", max);
    }
}
