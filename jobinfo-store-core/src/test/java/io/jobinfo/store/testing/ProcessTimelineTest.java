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
    void threadsAreCountedByNameGroupAndTheGroupsThatGrewAreNamedUnderANotFlatRow() throws Exception {
        assertThat(ProcessTimeline.threadGroup("seatunnel-coord")).isEqualTo("seatunnel-coord");
        assertThat(ProcessTimeline.threadGroup("pool-3-thread-1")).isEqualTo("pool--thread");
        assertThat(ProcessTimeline.threadGroup("hz.client_1.")).isEqualTo("hz.client");
        assertThat(ProcessTimeline.threadGroup("12")).isEqualTo("(digits only)");

        ProcessTimeline.Limits tight = new ProcessTimeline.Limits(60, 60, 16, 1000, 2);
        ProcessTimeline t = new ProcessTimeline(tight);
        List<Thread> started = new java.util.ArrayList<>();
        java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
        try {
            for (int s = 0; s <= 300; s += 10) {
                if (s == 200) {
                    // five threads of one name group appear between the early and the late window
                    for (int i = 0; i < 5; i++) {
                        Thread th = new Thread(() -> {
                            try {
                                end.await();
                            } catch (InterruptedException ignored) {
                                // ends the thread
                            }
                        }, "soak-grower-" + i);
                        th.setDaemon(true);
                        th.start();
                        started.add(th);
                    }
                    Thread.sleep(200); // the kernel's comm is set by the thread itself as it starts
                }
                assertThat(t.sample(s, "self", SELF, 100, 0)).isTrue();
            }
        } finally {
            end.countDown();
        }
        assertThat(t.samples().get(0).threadGroups()).as("this JVM's threads by name group").containsKey("Finalizer");
        assertThat(t.threadGrowth("self")).first().satisfies(g -> {
            assertThat(g.group()).isEqualTo("soak-grower");
            assertThat(g.growth()).isEqualTo(5.0);
        });
        assertThat(t.flatnessMarkdown("process")).contains("| self | 5 min | threads |", "**no**",
                "Threads that grew, by name group", "- self: `soak-grower` +5");
        for (Thread th : started) {
            th.join(5_000);
        }
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
        assertThat(t.jsonArrays("runningJobs")).contains("\"recoverySeconds\": 4.50", "\"runningJobs\": 7",
                "\"threadGroups\": {", "\"Finalizer\": 1");
        assertThat(t.flatnessMarkdown("SeaTunnel member")).contains("per SeaTunnel member that lived at least 3"
                + " minutes", "| m1 | 5 min | threads |");
        t.chart(dir.resolve("soak.png"));
        assertThat(Files.size(dir.resolve("soak.png"))).isGreaterThan(1000);
    }
}
