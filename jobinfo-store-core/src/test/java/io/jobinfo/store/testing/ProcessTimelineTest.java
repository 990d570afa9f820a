package io.jobinfo.store.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soaks' verdict on samples of this very JVM (its real descriptors and threads from /proc). */
class ProcessTimelineTest {

    private static final long SELF = ProcessHandle.current().pid();
    private static final ProcessTimeline.Limits LIMITS = new ProcessTimeline.Limits(60, 60, 16, 1000, 1000);

    @Test
    void aProcessWhoseHeapGrowsPastTheLimitIsNotFlatAndOneThatStaysIs() {
        ProcessTimeline t = new ProcessTimeline(LIMITS);
        for (int s = 0; s <= 300; s += 10) {
            assertThat(t.sample(s, "steady", SELF, 100, 0)).isTrue();
            assertThat(t.sample(s, "leaking", SELF, 100 + s / 10.0, 0)).isTrue();
        }
        List<ProcessTimeline.Flatness> heap = t.flatness().stream()
                .filter(f -> f.metric().startsWith("heap")).toList();
        assertThat(heap).extracting(ProcessTimeline.Flatness::member).containsExactly("steady", "leaking");
        assertThat(heap.get(0).flat()).isTrue();
        // early window [60, 120) s: median 108.5 MiB; last 60 s (after 240): median 127.5 MiB, 19 MiB more than the 16 allowed
        assertThat(heap.get(1).early()).isEqualTo(108.5);
        assertThat(heap.get(1).late()).isEqualTo(127.5);
        assertThat(heap.get(1).flat()).isFalse();
        assertThat(t.flatness()).filteredOn(f -> f.metric().equals("open file descriptors"))
                .allSatisfy(f -> assertThat(f.early()).isPositive());
    }

    @Test
    void aProcessSampledForLessThanWarmUpAndTwoWindowsIsNotJudged() {
        ProcessTimeline t = new ProcessTimeline(LIMITS);
        for (int s = 0; s < 170; s += 10) {
            t.sample(s, "short-lived", SELF, 100 + s, 0);
        }
        assertThat(t.flatness()).isEmpty();
    }

    @Test
    void aProcessThatIsGoneLeavesNoSample() {
        ProcessTimeline t = new ProcessTimeline(LIMITS);
        assertThat(t.sample(0, "gone", Long.MAX_VALUE, 1, 0)).isFalse();
        assertThat(t.samples()).isEmpty();
    }

    @Test
    void theReportPartsCarryTheKillsAndTheChartIsWritten(@TempDir Path dir) throws Exception {
        ProcessTimeline t = new ProcessTimeline(LIMITS);
        for (int s = 0; s <= 300; s += 10) {
            t.sample(s, "m1", SELF, 100, 7);
        }
        t.kill(100, 4.5, 12);
        t.kill(200, 6.5, 12);
        assertThat(t.recovery()).isEqualTo("5.5 s / 6.5 s");
        assertThat(t.jsonArrays("runningJobs")).contains("\"recoverySeconds\": 4.50", "\"runningJobs\": 7");
        assertThat(t.flatnessMarkdown("SeaTunnel member")).contains("per SeaTunnel member that lived at least 3"
                + " minutes", "| m1 | 5 min | threads |");
        t.chart(dir.resolve("soak.png"));
        assertThat(Files.size(dir.resolve("soak.png"))).isGreaterThan(1000);
    }
}
