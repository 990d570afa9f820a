package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The submit's phases as a feature (issue 24 item 3): the registry times each phase of every submit in
 * {@code jobinfo.submit.phase} (tag {@code phase}), and a {@link SubmitPhaseListener} is told of the phases in order.
 */
class RegistrySubmitPhasesTest {

    @TempDir
    Path dir;

    @Test
    void everySubmitIsTimedPerPhaseAndTheListenerSeesThePhasesInOrder() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (HazelcastTestCluster cluster = new HazelcastTestCluster(1);
             JobInfoStore store = JobInfoStores.open(JobInfoStorageConfig.builder("local")
                     .namespace(dir.toString()).build());
             RunningJobInfoRegistry<TestJob> registry = RunningJobInfoRegistry.builder(
                     cluster.master(), store, TestJob.codec()).meterRegistry(meters)
                     .submitPhaseListener(new SubmitPhaseListener() {
                         @Override
                         public void beforeBlobWrite(long jobId) {
                             seen.add(jobId + " before-blob");
                         }

                         @Override
                         public void afterBlobWrite(long jobId) {
                             seen.add(jobId + " after-blob");
                         }

                         @Override
                         public void afterPointerWrite(long jobId) {
                             seen.add(jobId + " after-pointer");
                         }
                     }).build()) {
            TestJobGenerator generator = new TestJobGenerator(3);
            for (long id = 1; id <= 3; id++) {
                registry.submit(id, generator.generate(id, 50_000));
            }
        }
        assertThat(seen).containsExactly("1 before-blob", "1 after-blob", "1 after-pointer", "2 before-blob",
                "2 after-blob", "2 after-pointer", "3 before-blob", "3 after-blob", "3 after-pointer");
        for (String phase : new String[] {"encode", "blob-write", "pointer-write", "blob-check"}) {
            Timer timer = meters.find("jobinfo.submit.phase").tag("phase", phase).timer();
            assertThat(timer).as(phase).isNotNull();
            assertThat(timer.count()).as(phase).isEqualTo(3);
            assertThat(timer.totalTime(TimeUnit.NANOSECONDS)).as(phase).isPositive();
        }
        Timer whole = meters.find("jobinfo.submit").timer();
        double phases = 0;
        for (Timer t : meters.find("jobinfo.submit.phase").timers()) {
            phases += t.totalTime(TimeUnit.NANOSECONDS);
        }
        assertThat(phases).as("the phases lie inside the submit").isLessThanOrEqualTo(
                whole.totalTime(TimeUnit.NANOSECONDS));
    }
}
