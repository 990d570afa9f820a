package io.jobinfo.store.seatunnel.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak's allow-list of SeaTunnel's own errors, on the two failed operations of the 60-minute soak of e2b485f as
 * soak.json recorded them (test resource {@code soak/seatunnel-2.3.8-failed-ops.txt}, one per line), and on the same
 * texts changed so that each rule of {@link KnownEngineFailures} refuses them.
 */
class KnownEngineFailuresTest {

    static List<String> recorded() throws IOException {
        try (InputStream in = KnownEngineFailuresTest.class.getResourceAsStream(
                "/soak/seatunnel-2.3.8-failed-ops.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }

    @Test
    void theTwoCheckpointErrorsOfSeaTunnelTwoThreeEightAreKnown() throws Exception {
        List<String> failures = recorded();
        assertThat(failures).hasSize(2);
        assertThat(KnownEngineFailures.match(failures.get(0))).hasValueSatisfying(
                s -> assertThat(s.name()).contains("SourceSplitEnumeratorTask.restoreState"));
        assertThat(KnownEngineFailures.match(failures.get(1))).hasValueSatisfying(
                s -> assertThat(s.name()).startsWith("apache/seatunnel#10655"));
    }

    @Test
    void theSameErrorIsNotKnownOnceTheDropInIsInItsStackOrTheJobDidNotFail() throws Exception {
        String checkpoint = recorded().get(1);
        // a frame of ours anywhere in SeaTunnel's detail: the drop-in took part
        String withOurFrame = checkpoint.replace("\\n\\tat org.apache.seatunnel.engine.server.checkpoint"
                + ".CheckpointCoordinator.completePendingCheckpoint(", "\\n\\tat io.jobinfo.store.seatunnel.dropin"
                + ".JobInfoMover.restore(JobInfoMover.java:1)\\n\\tat org.apache.seatunnel.engine.server.checkpoint"
                + ".CheckpointCoordinator.completePendingCheckpoint(");
        assertThat(withOurFrame).isNotEqualTo(checkpoint);
        assertThat(KnownEngineFailures.match(withOurFrame)).isEmpty();

        String notFailed = checkpoint.replace("\"jobStatus\":\"FAILED\"", "\"jobStatus\":\"RUNNING\"");
        assertThat(notFailed).isNotEqualTo(checkpoint);
        assertThat(KnownEngineFailures.match(notFailed)).isEmpty();

        // the test's own message naming the error, without SeaTunnel's detail, is not enough
        assertThat(KnownEngineFailures.match("10 s: cancel failed: NullPointerException at org.apache.seatunnel"
                + ".engine.server.checkpoint.CheckpointCoordinator.completePendingCheckpoint(")).isEmpty();
    }

    @Test
    void anotherRootCauseIsNotKnownAndTheBoundGrowsWithTheOperations() throws Exception {
        String other = recorded().get(1).replace("java.lang.NullPointerException", "java.lang.IllegalStateException");
        assertThat(KnownEngineFailures.match(other)).isEmpty();
        assertThat(KnownEngineFailures.bound(10)).isEqualTo(1);
        assertThat(KnownEngineFailures.bound(1053)).isEqualTo(5);
    }

    @Test
    void theReportCountsKnownFailuresApartFromFailedOperations() throws Exception {
        EngineSoakReport report = new EngineSoakReport(java.time.Duration.ofMinutes(60),
                java.time.Duration.ofMinutes(10), 60);
        List<String> failures = recorded();
        report.failed(failures.get(0));
        report.failed(failures.get(1));
        report.failed("12 s: submit failed: timeout");
        assertThat(report.failedOps).containsExactly("12 s: submit failed: timeout");
        assertThat(report.engineFailures).extracting(EngineSoakReport.EngineFailure::failure)
                .containsExactly(failures.get(0), failures.get(1));
        assertThat(report.engineFailures).extracting(EngineSoakReport.EngineFailure::signature)
                .containsExactly(KnownEngineFailures.match(failures.get(0)).orElseThrow().name(),
                        KnownEngineFailures.match(failures.get(1)).orElseThrow().name());
        assertThat(report.markdown()).contains("| jobs failed by SeaTunnel's known errors (allow-listed",
                "| failed operations | 1 |", "- SeaTunnel's known error, apache/seatunnel#10655");
    }
}
