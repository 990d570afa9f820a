package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The blob-phase target's row and explanation from a run's figures (no cluster). */
class RebasedTargetsTest {

    @Test
    void aMissedBlobPhaseSaysHowMuchOfItWasGarbageCollection() {
        BenchOptions o = BenchOptions.parse(new String[] {"report"});
        Metrics m = new Metrics();
        m.add("blob.local.p8.bw", "MB/s", 869);
        m.add("floor.local.p8.bw", "MB/s", 1634);
        m.add("raw.local.p8.bw", "MB/s", 9734);
        m.add("blob.local.p8.ms", "ms", 236);
        m.add("floor.local.p8.ms", "ms", 126);
        m.add("blobGc.local.p8.ms", "ms", 100);
        m.add("floorGc.local.p8.ms", "ms", 10);
        RebasedTargets t = new RebasedTargets(o, m, List.of("local"), 8);
        assertThat(t.summaryRows()).anySatisfy(row -> assertThat(String.join(" | ", row))
                .contains("blob phase bandwidth, local (8 loaders)", "53%", "**missed**"));
        assertThat(String.join("\n", t.explain())).contains("**3. Blob phase on local: 869 MB/s, 53% of the"
                + " verification floor", "Garbage collection took 100 ms of the blob phase's 236 ms (10 ms of the"
                + " floor's 126 ms)", "1000 x 200 KiB of decoded jobs", "without that time the blob phase would be"
                + " 93% of the floor");
    }

    @Test
    void withoutTheCollectorsTimeTheExplanationSaysNothingOfIt() {
        Metrics m = new Metrics();
        m.add("blob.local.p8.bw", "MB/s", 869);
        m.add("floor.local.p8.bw", "MB/s", 1634);
        m.add("raw.local.p8.bw", "MB/s", 9734);
        String text = String.join("\n", new RebasedTargets(BenchOptions.parse(new String[] {"report"}), m,
                List.of("local"), 8).explain());
        assertThat(text).contains("**3. Blob phase on local").doesNotContain("Garbage collection");
    }
}
