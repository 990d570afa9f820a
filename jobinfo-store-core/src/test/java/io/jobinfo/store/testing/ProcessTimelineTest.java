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
        assertThat(t.threadGrowth("self", ProcessTimeline.WHOLE_LIFE)).first().satisfies(g -> {
            assertThat(g.group()).isEqualTo("soak-grower");
            assertThat(g.growth()).isEqualTo(5.0);
        });
        assertThat(t.flatnessMarkdown("process")).contains("| self | whole life | 5 min | threads |", "**no**",
                "Threads that grew, by name group", "- self, whole life: `soak-grower` +5");
        for (Thread th : started) {
            th.join(5_000);
        }
    }

    /**
     * A new master's step (threads it starts as it becomes master) is no growth of either part of its life, while
     * threads that keep appearing as master are; the same samples judged as one life call the step growth.
     */
    @Test
    void aProcessThatBecameMasterIsJudgedBeforeAndAsMasterApart() throws Exception {
        ProcessTimeline.Limits tight = new ProcessTimeline.Limits(60, 60, 16, 1000, 2);
        ProcessTimeline t = new ProcessTimeline(tight);
        java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
        List<Thread> started = new java.util.ArrayList<>();
        try {
            for (int s = 0; s <= 400; s += 10) {
                if (s == 200) {
                    t.promoted(200, "promoted");
                    t.promoted(300, "promoted"); // only the first promotion counts
                    started.addAll(startThreads("soak-master-pool-", 5, end));
                }
                if (s == 350) {
                    started.addAll(startThreads("soak-leaker-", 5, end));
                }
                assertThat(t.sample(s, "promoted", SELF, 100, 0)).isTrue();
                assertThat(t.sample(s, "unsplit", SELF, 100, 0)).isTrue();
            }
        } finally {
            end.countDown();
        }
        List<ProcessTimeline.Flatness> threads = t.flatness().stream().filter(f -> f.metric().equals("threads"))
                .toList();
        assertThat(threads).extracting(f -> f.member() + ", " + f.part() + ": " + f.flat()).containsExactly(
                "promoted, before it became master: true", "promoted, as master: false", "unsplit, whole life: false");
        assertThat(threads.get(1).late() - threads.get(1).early()).isEqualTo(5.0);
        assertThat(threads.get(2).late() - threads.get(2).early()).isEqualTo(10.0);
        assertThat(t.threadGrowth("promoted", ProcessTimeline.AS_MASTER)).extracting(ProcessTimeline.ThreadGrowth::group)
                .containsExactly("soak-leaker");
        assertThat(t.threadGrowth("promoted", ProcessTimeline.BEFORE_MASTER)).isEmpty();
        assertThat(t.jsonArrays("jobs")).contains("\"promotedAt\": {\"promoted\": 200.0}", "\"part\": \"as master\"");
        assertThat(t.flatnessMarkdown("process")).contains("| promoted | as master | 3 min | threads |",
                "- promoted, as master: `soak-leaker` +5");
        for (Thread th : started) {
            th.join(5_000);
        }
    }

    /** Starts {@code n} daemon threads named {@code prefix + i} that wait for {@code end}. */
    private static List<Thread> startThreads(String prefix, int n, java.util.concurrent.CountDownLatch end)
            throws InterruptedException {
        List<Thread> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread th = new Thread(() -> {
                try {
                    end.await();
                } catch (InterruptedException ignored) {
                    // ends the thread
                }
            }, prefix + i);
            th.setDaemon(true);
            th.start();
            out.add(th);
        }
        Thread.sleep(200); // the kernel's comm is set by the thread itself as it starts
        return out;
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
        assertThat(t.flatnessMarkdown("SeaTunnel member")).contains("per SeaTunnel member and part of its life that"
                + " lasted at least 3 minutes", "| m1 | whole life | 5 min | threads |");
        t.chart(dir.resolve("soak.png"));
        assertThat(Files.size(dir.resolve("soak.png"))).isGreaterThan(1000);
    }
}
