package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobinfo.store.benchmarks.SeaTunnelHistoryBenchmark.Figure;
import org.junit.jupiter.api.Test;

/**
 * The pieces of the real-engine history scenario that need no cluster (it runs in the full report and in
 * {@code benchmarks.jar engine-history}): its options refuse bad input by name, the figures read from the harness's
 * JSON row, and the section sets stock and drop-in side by side with the goals' verdicts computed from the medians.
 */
class SeaTunnelHistoryBenchmarkTest {

    @Test
    void optionsDefaultTo1kAnd10kRetainedAndRefuseBadInputByName() {
        BenchOptions d = BenchOptions.parse(new String[] {"report"});
        assertThat(d.engineHistory).containsExactly(1000, 10_000);
        assertThat(d.engineHistoryRounds()).isEqualTo(3);
        BenchOptions o = BenchOptions.parse(new String[] {"engine-history", "--engine-history", "100, 500",
            "--engine-history-rounds", "1"});
        assertThat(o.engineHistory).containsExactly(100, 500);
        assertThat(o.engineHistoryRounds()).isEqualTo(1);
        assertThat(BenchOptions.parse(new String[] {"report", "--engine-history", "none"}).engineHistory).isEmpty();
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--engine-history", "500,100"}))
                .hasMessageContaining("--engine-history must be increasing");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--engine-history", "1k"}))
                .hasMessageContaining("--engine-history: '1k' is not a whole number");
    }

    @Test
    void figuresAreReadFromTheScenarioRowAndMissingOnesAreNaN() throws Exception {
        var row = new ObjectMapper().readTree("""
                {"retained": 1000, "bytesPerRetainedJob": 1146, "liveHeapBytesPerRetainedJob": 700,
                 "masterLiveHeapRatio": 1.012, "liveHeapBytesAfterRest": 104857600,
                 "rest": {"finishedJobsP50Millis": 850.5, "finishedJobsFirstMillis": 900.0}}""");
        assertThat(Figure.BYTES.of(row)).isEqualTo(1146.0);
        assertThat(Figure.MASTER_HEAP.of(row)).isEqualTo(1.012);
        assertThat(Figure.LISTING.of(row)).isEqualTo(850.5);
        assertThat(Figure.HEAP_AFTER_REST.of(row)).isEqualTo(100.0);
        assertThat(Figure.JOB_INFO.of(row)).isNaN();
    }

    @Test
    void sectionQuotesMediansSideBySideAndTheGoalsVerdicts() {
        BenchOptions o = BenchOptions.parse(new String[] {"engine-history", "--engine-history", "1000,10000"});
        Metrics m = new Metrics();
        for (double r : new double[] {0.9, 1.0, 1.1}) {
            for (int n : new int[] {1000, 10_000}) {
                m.add(SeaTunnelHistoryBenchmark.key("stock", n, Figure.BYTES), "B", 12_700 * r);
                m.add(SeaTunnelHistoryBenchmark.key("dropin", n, Figure.BYTES), "B", 1146 * r);
                m.add(SeaTunnelHistoryBenchmark.key("stock", n, Figure.MASTER_HEAP), "x", 1.5 * r);
                m.add(SeaTunnelHistoryBenchmark.key("dropin", n, Figure.MASTER_HEAP), "x", 1.04 * r);
                m.add(SeaTunnelHistoryBenchmark.key("stock", n, Figure.LISTING), "ms", 800 * r);
                m.add(SeaTunnelHistoryBenchmark.key("dropin", n, Figure.LISTING), "ms", 600 * r);
            }
        }
        // no round measured: only the title
        assertThat(new SeaTunnelHistoryBenchmark(o, new Metrics(), null).section())
                .isEqualTo(SeaTunnelHistoryBenchmark.TITLE + "\n\n");
        String md = new SeaTunnelHistoryBenchmark(o, m, null).section();
        assertThat(md).contains("3 round(s)");
        assertThat(md).contains("| 10000 | history maps' bytes per retained job (owned + backup), B | 12700 | 1146 |"
                + " 0.0902x |");
        assertThat(md).contains("cluster heap per retained finished job <= 1 KB: 1146 B, NOT met");
        assertThat(md).contains("master live heap after GC within 5% of none retained: 1.040x, met (stock: 1.500x)");
        assertThat(md).contains("finished-jobs no slower than stock: 600.0 ms against 800.0 ms (0.75x), met.");
        assertThat(md).contains("| 1000 | REST job-info of one finished job, median, ms | not measured | not measured |");
    }

    @Test
    void aRoundsResultGivesTheStoreReadsOfTheListingAndWhatTheMastersHeapGrewBy() throws Exception {
        BenchOptions o = BenchOptions.parse(new String[] {"engine-history", "--engine-history", "1000,10000"});
        Metrics m = new Metrics();
        SeaTunnelHistoryBenchmark b = new SeaTunnelHistoryBenchmark(o, m, null);
        var result = new ObjectMapper().readTree("""
                {"variants": {
                  "stock": {"counts": [
                    {"retained": 10000, "bytesPerRetainedJob": 12700, "masterLiveHeapRatio": 2.785,
                     "rest": {"finishedJobsP50Millis": 13123.8},
                     "masterHeapGrowthByClass": [{"class": "[B", "instances": 30000, "bytes": 125829120}]}]},
                  "dropin": {"counts": [
                    {"retained": 1000, "bytesPerRetainedJob": 996, "restStoreReadsPerListedJob": 0.5,
                     "masterHeapGrowthByClass": [{"class": "[B", "instances": 1, "bytes": 1048576}]},
                    {"retained": 10000, "bytesPerRetainedJob": 996, "restStoreReadsPerListedJob": 2.75,
                     "masterLiveHeapRatio": 1.178, "rest": {"finishedJobsP50Millis": 14390.4},
                     "masterHeapGrowthByClass": [
                       {"class": "com.hazelcast.map.impl.record.DataRecordWithStats", "instances": 20000,
                        "bytes": 2097152},
                       {"class": "[B", "instances": 40000, "bytes": 1572864}]}]}}}""");
        assertThat(b.record(result)).isNull();
        assertThat(m.median(SeaTunnelHistoryBenchmark.key("dropin", 10_000, Figure.REST_STORE_READS)))
                .isEqualTo(2.75);
        String md = b.section();
        assertThat(md).contains("| 10000 | store reads (cache misses, all members) per listed job and listing, reads"
                + " | not measured | 2.75 |");
        assertThat(md).contains("What the master's live heap grew by from none retained to 10000 retained",
                "- dropin: `com.hazelcast.map.impl.record.DataRecordWithStats` +2.0 MiB (+20000), `[B` +1.5 MiB"
                        + " (+40000);", "- stock: `[B` +120.0 MiB (+30000);");
        // the verdicts name what bounds the missed goals, computed from the same figures
        assertThat(md).contains("1.178x, NOT met (stock: 2.785x). What bounds it: the classes above grew by 3.5 MiB"
                + " on the drop-in's master, 367 B per retained job", "(1.10x), NOT met. What bounds it: each listing"
                + " read 2.75 values per listed job from the store", "the 1267 ms it took more than stock's is 46 us"
                + " per store read");
    }
}
