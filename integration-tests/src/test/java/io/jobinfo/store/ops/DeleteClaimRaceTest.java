package io.jobinfo.store.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.KryoJobInfoCodec;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.service.JobInfoPointer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.service.SubmitObserver;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check-then-act race of a deletion against a retried submit, made deterministic with the GC's test seam: GC
 * has decided a blob is an orphan and is paused right before deleting it; a retried submit of the same job with the
 * same bytes (whose {@code create} reports ALREADY_PRESENT) runs in that pause. Afterwards there must never be a
 * pointer without its blob.
 */
class DeleteClaimRaceTest {

    private static final KryoJobInfoCodec<JobImmutableInformation> CODEC = JobImmutableInformationSerializer.codec();
    private static final long JOB = 4242L;
    private static final long INITIALIZED_AT = 1_700_000_000_000L;
    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /** First attempt of a submit: the blob is written, then the attempt fails before its pointer (an orphan). */
    private LocalJobInfoStore orphanOfAFailedFirstAttempt(String mapName, JobImmutableInformation job)
            throws Exception {
        LocalJobInfoStore store = LocalJobInfoStore.open(dir, null, true, true);
        try (RunningJobInfoRegistry<JobImmutableInformation> failing = RunningJobInfoRegistry
                .builder(cluster.master(), store, CODEC).mapName(mapName).submitObserver(new SubmitObserver() {
                    @Override
                    public void afterBlobWrite(long jobId) {
                        throw new IllegalStateException("first attempt: the coordinator fails after the blob write");
                    }
                }).build()) {
            assertThatThrownBy(() -> failing.submit(JOB, INITIALIZED_AT, job)).isInstanceOf(IllegalStateException.class);
        }
        assertThat(Files.exists(store.path(JOB))).isTrue();
        // older than the grace period: GC takes it for an orphan (a submit retried after a long outage)
        Files.setLastModifiedTime(store.path(JOB), FileTime.from(Instant.now().minus(Duration.ofHours(3))));
        return store;
    }

    @Test
    void aRetriedSubmitInsideGcsDeleteWindowNeverLeavesAPointerWithoutItsBlob() throws Exception {
        String mapName = "claim-race-" + System.nanoTime();
        JobImmutableInformation job = new JobGenerator(7).generate(JOB, 20_000);
        LocalJobInfoStore store = orphanOfAFailedFirstAttempt(mapName, job);
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        AtomicReference<Object> retry = new AtomicReference<>();
        try (RunningJobInfoRegistry<JobImmutableInformation> coordinator = RunningJobInfoRegistry
                .builder(cluster.nonMaster(), store, CODEC).mapName(mapName).build()) {
            GarbageCollector gc = new GarbageCollector(map, store, Duration.ofHours(1),
                    Clock.fixed(Instant.now(), ZoneOffset.UTC)).observer(new GarbageCollector.Observer() {
                        @Override
                        public void beforeDelete(long jobId) {
                            // GC has checked the map and is about to delete: the retried submit runs now
                            try {
                                retry.set(coordinator.submit(JOB, INITIALIZED_AT, job));
                            } catch (JobInfoStoreException | RuntimeException e) {
                                retry.set(e);
                            }
                        }
                    });
            GcReport report = gc.run(true, b -> { });
            assertThat(retry.get()).as("the retried submit ran inside GC's delete window").isNotNull();

            Object value = map.get(JOB);
            if (retry.get() instanceof JobInfoPointer) {
                // acknowledged: its pointer is there and the blob behind it is complete and verified
                assertThat(value).isEqualTo(retry.get());
                assertThat(Files.exists(store.path(JOB))).as("the blob behind pointer %s", value).isTrue();
                VerifiedBlob blob = store.read(JOB);
                assertThat(((JobInfoPointer) value).matches(blob.header())).isTrue();
                assertThat(coordinator.get(JOB)).contains(job);
                assertThat(report.deleted()).isEmpty();
            } else {
                // refused: it says clearly that the job id is being deleted, and no pointer was left
                assertThat((Throwable) retry.get()).isInstanceOf(JobInfoStoreException.class)
                        .hasMessageContaining("being deleted");
                assertThat(value).as("no pointer without its blob").isNotInstanceOf(JobInfoPointer.class);
                assertThat(coordinator.runningJobIds()).doesNotContain(JOB);
            }
        }
    }
}
