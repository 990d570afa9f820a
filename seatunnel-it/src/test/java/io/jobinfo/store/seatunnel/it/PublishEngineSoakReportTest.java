package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.testing.ReliabilitySection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The real-engine soak's report as written and published; no cluster (the soak itself is opt-in). */
class PublishEngineSoakReportTest {

    @Test
    void theSoakReportReplacesOnlyItsSectionAndItsChart(@TempDir Path dir) throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Path page = docs.resolve("reliability.md");
        String before = "# Reliability\n" + ReliabilitySection.ENGINE.wrap("## Crash trials\n20") + "\n"
                + ReliabilitySection.ENGINE_SOAK.wrap("No soak yet") + "\ntail\n";
        Files.writeString(page, before);
        Path soak = dir.resolve("soak");

        assertThatThrownBy(() -> PublishEngineSoakReport.publish(soak, docs))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("run the soak first");
        assertThat(Files.readString(page)).isEqualTo(before);

        EngineSoakReport report = new EngineSoakReport(Duration.ofMinutes(60), Duration.ofMinutes(10), 60);
        long self = ProcessHandle.current().pid();
        for (int t = 0; t <= 1200; t += 30) {
            report.timeline.sample(t, "member 0 (pid " + self + ")", self, 300, 6);
        }
        report.timeline.kill(600, 5.2, 6);
        report.count("submit");
        report.count("submit");
        report.blobsLeftAtEnd = 0;
        report.write(soak);
        assertThat(Files.readString(soak.resolve("soak.json"))).contains("\"operations\": {\"submit\": 2}",
                "\"streamingJobs\": 6", "\"blobsLeftAtEnd\": 0");

        PublishEngineSoakReport.publish(soak, docs);
        String after = Files.readString(page);
        assertThat(after).startsWith("# Reliability\n").contains("## Crash trials\n20")
                .contains("## Soak on the real engine: 60 minutes of job churn and master kills",
                        "| operations: submit | 2 |", "| master kills | 1 |", "| threads | ")
                .doesNotContain("No soak yet").endsWith(ReliabilitySection.ENGINE_SOAK.end() + "\ntail\n");
        assertThat(Files.size(docs.resolve("reliability").resolve("engine-soak.png"))).isGreaterThan(1000);
    }

    @Test
    void aFailedOperationIsListedWithSeaTunnelsRootCauseNotItsWholeStackTrace() {
        // as ClusterClient.detailOf gives a job's detail: SeaTunnel's JSON, its errorMessage's newlines escaped
        String failure = "2941 s: cancel failed: java.lang.AssertionError: job 7 ended FAILED while awaiting CANCELED;"
                + " SeaTunnel's detail: {\"jobId\":7,\"errorMessage\":\"org.apache.seatunnel.engine.server"
                + ".checkpoint.CheckpointException: CheckpointCoordinator inside have error.\\n\\tat org.apache"
                + ".seatunnel.engine.server.checkpoint.CheckpointCoordinator.handleCoordinatorError("
                + "CheckpointCoordinator.java:281)\\nCaused by: java.lang.NullPointerException: Cannot invoke"
                + " \\\"PendingCheckpoint.abortCheckpointTimeoutFutureWhenIsCompleted()\\\"\\n\\tat java.base/java"
                + ".util.concurrent.ConcurrentHashMap.remove(ConcurrentHashMap.java:1102)\\n\\tat org.apache"
                + ".seatunnel.engine.server.checkpoint.CheckpointCoordinator.completePendingCheckpoint("
                + "CheckpointCoordinator.java:891)\\n\\t... 7 more\\n\"}";
        assertThat(EngineSoakReport.shortFailure(failure)).isEqualTo("2941 s: cancel failed:"
                + " java.lang.AssertionError: job 7 ended FAILED while awaiting CANCELED; SeaTunnel's root cause:"
                + " Caused by: java.lang.NullPointerException: Cannot invoke"
                + " \"PendingCheckpoint.abortCheckpointTimeoutFutureWhenIsCompleted()\" at org.apache.seatunnel"
                + ".engine.server.checkpoint.CheckpointCoordinator.completePendingCheckpoint("
                + "CheckpointCoordinator.java:891) (the whole detail in soak.json)");
        assertThat(EngineSoakReport.shortFailure("12 s: submit failed: timeout"))
                .isEqualTo("12 s: submit failed: timeout");
    }
}
