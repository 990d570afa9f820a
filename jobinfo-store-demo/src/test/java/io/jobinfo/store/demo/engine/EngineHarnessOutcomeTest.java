package io.jobinfo.store.demo.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link EngineHarness#run} reports of the scenario JVM it starts: a real child JVM, whose main class is
 * {@link ScenarioStandIn} so that a hang, a failure and a crash happen on demand.
 */
class EngineHarnessOutcomeTest {

    @TempDir
    Path work;

    private EngineHarness.Outcome run(String behaviour, Duration timeout, List<String> progress) throws Exception {
        String classpath = System.getProperty("java.class.path");
        EngineHarness harness = new EngineHarness(work.resolve("no-such.jar"), classpath, work.resolve("plugin.jar"),
                ScenarioStandIn.class.getName());
        return harness.run(List.of(behaviour), work.resolve(behaviour), progress::add, timeout);
    }

    @Test
    void aScenarioStoppedByItsTimeOutIsReportedAsTimedOutNotAsAnExitCode() throws Exception {
        List<String> progress = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        EngineHarness.Outcome out = run("hang", Duration.ofSeconds(3), progress);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
        assertThat(out.timedOut()).isTrue();
        assertThat(out.completed()).isFalse();
        assertThat(out.failure()).contains("did not end within its time-out");
        assertThat(progress).anyMatch(l -> l.contains("did not end within PT3S: stopping it"));
    }

    @Test
    void aScenarioThatReportsAnErrorOrDiesIsAFailureWithoutATimeOut() throws Exception {
        EngineHarness.Outcome failed = run("fail", Duration.ofMinutes(2), new CopyOnWriteArrayList<>());
        assertThat(failed.timedOut()).isFalse();
        assertThat(failed.exitCode()).isEqualTo(2);
        assertThat(failed.failure()).isEqualTo("the stand-in's members did not start");

        EngineHarness.Outcome crashed = run("crash", Duration.ofMinutes(2), new CopyOnWriteArrayList<>());
        assertThat(crashed.timedOut()).isFalse();
        assertThat(crashed.result()).isNull();
        assertThat(crashed.failure()).isEqualTo("the scenario JVM ended with exit code 3 and no result");
    }

    @Test
    void aScenarioThatWritesAResultWithoutAnErrorCompleted() throws Exception {
        List<String> progress = new CopyOnWriteArrayList<>();
        EngineHarness.Outcome ok = run("complete", Duration.ofMinutes(2), progress);
        assertThat(ok.completed()).isTrue();
        assertThat(ok.failure()).isNull();
        assertThat(ok.exitCode()).isZero();
        assertThat(progress).contains("stand-in scenario: complete");
    }
}
