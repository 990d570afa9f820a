package io.jobinfo.store.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.lifecycle.DeleteMarker;
import io.jobinfo.store.service.JobIdClaimedException;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.service.SubmitPhaseListener;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check-then-act race of a deletion against a retried submit, made deterministic: the deleter (GC of an orphan,
 * or the removal of an ended job) has decided to delete the blob and is paused right before the delete; a retried
 * submit of the same job with the same bytes (whose {@code create} reports ALREADY_PRESENT) runs in that pause.
 * Afterwards there must never be a pointer without its blob: either the submit failed clearly and no pointer exists,
 * or the pointer exists and its blob is intact. The pause is GC's own test seam ({@link io.jobinfo.store.lifecycle.BlobDeletion.Steps})
 * and, for removals, a store wrapper that runs the retry when {@code delete} is called (the real local store does
 * the delete).
 */
class DeleteClaimRaceTest {

    private static final KryoJobInfoCodec<TestJob> CODEC = TestJob.codec();
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
    private LocalJobInfoStore orphanOfAFailedFirstAttempt(String mapName, TestJob job)
            throws Exception {
        LocalJobInfoStore store = LocalJobInfoStore.open(dir, null, true, true);
        try (RunningJobInfoRegistry<TestJob> failing = RunningJobInfoRegistry
                .builder(cluster.master(), store, CODEC).mapName(mapName).submitPhaseListener(new SubmitPhaseListener() {
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

    private static GarbageCollector pausedGc(IMap<Long, Object> map, JobInfoStore store, LongConsumer inPause) {
        return new GarbageCollector(map, store, Duration.ofHours(1), Clock.fixed(Instant.now(), ZoneOffset.UTC))
                .steps(new io.jobinfo.store.lifecycle.BlobDeletion.Steps() {
                    @Override
                    public void beforeDelete(long jobId) {
                        inPause.accept(jobId);
                    }
                });
    }

    /** The retried submit runs on GC's thread inside its delete window; a claim is met, so it fails at once. */
    @Test
    void aRetriedSubmitInsideGcsDeleteWindowNeverLeavesAPointerWithoutItsBlob() throws Exception {
        String mapName = "claim-race-" + System.nanoTime();
        TestJob job = new TestJobGenerator(7).generate(JOB, 20_000);
        LocalJobInfoStore store = orphanOfAFailedFirstAttempt(mapName, job);
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        AtomicReference<Object> retry = new AtomicReference<>();
        try (RunningJobInfoRegistry<TestJob> coordinator = RunningJobInfoRegistry
                .builder(cluster.nonMaster(), store, CODEC).mapName(mapName).claimWait(Duration.ZERO).build()) {
            GcReport report = pausedGc(map, store, jobId -> {
                // GC has checked the map and is about to delete: the retried submit runs now
                try {
                    retry.set(coordinator.submit(JOB, INITIALIZED_AT, job));
                } catch (JobInfoStoreException | RuntimeException e) {
                    retry.set(e);
                }
            }).run(true, b -> { });
            assertThat(retry.get()).as("the retried submit ran inside GC's delete window").isNotNull();
            assertNeverAPointerWithoutItsBlob(map, store, coordinator, retry.get(), job);
            if (retry.get() instanceof Throwable) {
                assertThat((Throwable) retry.get()).isInstanceOf(JobIdClaimedException.class);
                assertThat(report.deleted()).extracting(StoredBlob::jobId).containsExactly(JOB);
            }
            assertThat(map.get(JOB) instanceof DeleteMarker).as("GC released its claim").isFalse();
        }
    }

    /**
     * The retried submit runs on its own thread and meets GC's claim; GC is released only once the submit is
     * waiting for the claim (told by the submit's own seam): the submit then writes blob and pointer again.
     */
    @Test
    void aRetriedSubmitThatWaitsForGcsClaimRegistersItsJobWithAnIntactBlob() throws Exception {
        String mapName = "claim-wait-" + System.nanoTime();
        TestJob job = new TestJobGenerator(8).generate(JOB, 20_000);
        LocalJobInfoStore store = orphanOfAFailedFirstAttempt(mapName, job);
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        CountDownLatch claimMet = new CountDownLatch(1);
        try (RunningJobInfoRegistry<TestJob> coordinator = RunningJobInfoRegistry
                .builder(cluster.nonMaster(), store, CODEC).mapName(mapName).claimWait(Duration.ofMinutes(2))
                .submitPhaseListener(new SubmitPhaseListener() {
                    @Override
                    public void claimMet(long jobId, DeleteMarker marker) {
                        claimMet.countDown();
                    }
                }).build()) {
            AtomicReference<CompletableFuture<Object>> retry = new AtomicReference<>();
            GcReport report = pausedGc(map, store, jobId -> {
                retry.set(CompletableFuture.supplyAsync(() -> {
                    try {
                        return coordinator.submit(JOB, INITIALIZED_AT, job);
                    } catch (JobInfoStoreException | RuntimeException e) {
                        return e;
                    }
                }));
                try {
                    assertThat(claimMet.await(60, TimeUnit.SECONDS)).as("the submit met GC's claim").isTrue();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }).run(true, b -> { });
            Object outcome = retry.get().get(60, TimeUnit.SECONDS);
            assertThat(outcome).as("the waiting submit is acknowledged").isInstanceOf(JobInfoPointer.class);
            assertThat(report.deleted()).extracting(StoredBlob::jobId).containsExactly(JOB); // the first attempt's
            assertNeverAPointerWithoutItsBlob(map, store, coordinator, outcome, job);
        }
    }

    /** A removal of the ended job and a retried submit of the same job in the removal's delete window. */
    @Test
    void aRetriedSubmitInsideARemovalsDeleteWindowNeverLeavesAPointerWithoutItsBlob() throws Exception {
        String mapName = "claim-remove-" + System.nanoTime();
        TestJob job = new TestJobGenerator(9).generate(JOB, 20_000);
        LocalJobInfoStore local = LocalJobInfoStore.open(dir, null, true, true);
        AtomicReference<LongConsumer> onDelete = new AtomicReference<>(id -> { });
        JobInfoStore store = new PausingDeletes(local, onDelete);
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        AtomicReference<Object> retry = new AtomicReference<>();
        try (RunningJobInfoRegistry<TestJob> master = RunningJobInfoRegistry
                .builder(cluster.master(), store, CODEC).mapName(mapName).build();
             RunningJobInfoRegistry<TestJob> retrying = RunningJobInfoRegistry
                .builder(cluster.nonMaster(), store, CODEC).mapName(mapName).claimWait(Duration.ZERO).build()) {
            master.submit(JOB, INITIALIZED_AT, job);
            onDelete.set(jobId -> {
                // the removal has decided and is about to delete the blob: a retried submit of the job runs now
                try {
                    retry.set(retrying.submit(JOB, INITIALIZED_AT, job));
                } catch (JobInfoStoreException | RuntimeException e) {
                    retry.set(e);
                }
            });
            assertThat(master.remove(JOB)).isTrue();
            onDelete.set(id -> { });
            assertThat(retry.get()).as("the retried submit ran inside the removal's delete window").isNotNull();
            assertNeverAPointerWithoutItsBlob(map, local, retrying, retry.get(), job);
            assertThat(map.get(JOB) instanceof DeleteMarker).as("the removal released its claim").isFalse();
        }
    }

    /**
     * GC racing a slow submit: the submit pauses between its blob write and its pointer write, and in that pause a GC
     * with a clock an hour ahead (the smallest grace the tool accepts, passed: the blob looks like an orphan) claims
     * the id, deletes the blob and releases its claim. The submit then puts its pointer and returns: it must not be
     * acknowledged with its blob gone. Before the submit checked its blob after the pointer write, it returned the
     * pointer of a deleted blob (one of 60 such races at {@code gc --grace 1s --force} lost 9 jobs this way).
     */
    @Test
    void aSubmitPausedBetweenBlobAndPointerWhileGcDeletesItsBlobIsNeverAcknowledgedWithoutIt() throws Exception {
        String mapName = "slow-submit-" + System.nanoTime();
        TestJob job = new TestJobGenerator(9).generate(JOB, 20_000);
        LocalJobInfoStore store = LocalJobInfoStore.open(dir, null, true, true);
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        GarbageCollector gc = new GarbageCollector(map, store, Duration.ofSeconds(1),
                Clock.fixed(Instant.now().plus(Duration.ofHours(1)), ZoneOffset.UTC));
        AtomicReference<GcReport> inPause = new AtomicReference<>();
        try (RunningJobInfoRegistry<TestJob> coordinator = RunningJobInfoRegistry
                .builder(cluster.nonMaster(), store, CODEC).mapName(mapName).submitPhaseListener(new SubmitPhaseListener() {
                    @Override
                    public void afterBlobWrite(long jobId) {
                        try {
                            inPause.set(gc.run(true, b -> { }));
                        } catch (JobInfoStoreException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }).build()) {
            Object outcome;
            try {
                outcome = coordinator.submit(JOB, INITIALIZED_AT, job);
            } catch (JobInfoStoreException | RuntimeException e) {
                outcome = e;
            }
            assertThat(inPause.get().deleted()).as("GC deleted the blob inside the submit's pause")
                    .extracting(StoredBlob::jobId).containsExactly(JOB);
            assertThat(outcome).as("the submit's outcome").isInstanceOf(JobInfoPointer.class);
            assertNeverAPointerWithoutItsBlob(map, store, coordinator, outcome, job);
            GcReport after = gc.run(true, b -> { });
            assertThat(after.deleted()).as("a later GC keeps the registered job's blob").isEmpty();
            assertThat(Files.exists(store.path(JOB))).isTrue();
        }
    }

    private static void assertNeverAPointerWithoutItsBlob(IMap<Long, Object> map, LocalJobInfoStore store,
            RunningJobInfoRegistry<TestJob> registry, Object outcome, TestJob job)
            throws Exception {
        Object value = map.get(JOB);
        if (outcome instanceof JobInfoPointer) {
            // acknowledged: its pointer is there and the blob behind it is complete and verified
            assertThat(value).isEqualTo(outcome);
            assertThat(Files.exists(store.path(JOB))).as("the blob behind pointer %s", value).isTrue();
            VerifiedBlob blob = store.read(JOB);
            assertThat(((JobInfoPointer) value).matches(blob.header())).isTrue();
            registry.invalidateAll();
            assertThat(registry.get(JOB)).contains(job);
        } else {
            // refused: it says clearly that the job id is being deleted, and no pointer was left
            assertThat((Throwable) outcome).isInstanceOf(JobInfoStoreException.class)
                    .hasMessageContaining("being deleted");
            assertThat(value instanceof JobInfoPointer).as("no pointer without its blob: %s", value).isFalse();
            assertThat(registry.runningJobIds()).doesNotContain(JOB);
            assertThat(registry.get(JOB)).isEmpty();
        }
    }

    /** The real store; {@code delete} first runs a hook on the deleting thread (the pause of the race). */
    private static final class PausingDeletes extends ForwardingJobInfoStore {
        private final AtomicReference<LongConsumer> onDelete;

        PausingDeletes(JobInfoStore delegate, AtomicReference<LongConsumer> onDelete) {
            super(delegate);
            this.onDelete = onDelete;
        }

        @Override
        public boolean delete(long jobId) throws JobInfoStoreException {
            onDelete.get().accept(jobId);
            return delegate.delete(jobId);
        }

    }

    /**
     * rebuild-pointers racing GC: the rebuilder has read and verified a lost job's blob, and before its pointer put a
     * GC run takes the blob for an orphan (no entry: the pointer is what was lost), claims the id, deletes the blob and
     * releases the claim. The put then lands on an empty id. Before, the pointer stayed without its blob; now the
     * rebuilder checks the blob after its put and takes its pointer back. The interleaving is produced by a store
     * wrapper that runs the GC right after the rebuilder's read returns (the real local store does every operation).
     */
    @Test
    void aPointerRebuiltWhileGcDeletesItsBlobIsTakenBack() throws Exception {
        String mapName = "rebuild-race-" + System.nanoTime();
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        LocalJobInfoStore real = LocalJobInfoStore.open(dir, null, true, true);
        byte[] payload = CODEC.encode(new TestJobGenerator(9).generate(JOB, 20_000));
        real.create(JOB, io.jobinfo.store.envelope.BlobSource.ofBytes(
                io.jobinfo.store.envelope.BlobEnvelope.wrap(JOB, CODEC.id(), INITIALIZED_AT, payload)));
        Files.setLastModifiedTime(real.path(JOB), FileTime.from(Instant.now().minus(Duration.ofHours(3))));
        AtomicReference<GcReport> gcInWindow = new AtomicReference<>();
        JobInfoStore racing = new io.jobinfo.store.spi.ForwardingJobInfoStore(real) {
            @Override
            public io.jobinfo.store.envelope.VerifiedBlob read(long jobId) throws JobInfoStoreException {
                io.jobinfo.store.envelope.VerifiedBlob read = super.read(jobId);
                if (jobId == JOB && gcInWindow.get() == null) {
                    gcInWindow.set(new GarbageCollector(map, real, Duration.ofHours(1)).run(true, b -> { }));
                }
                return read;
            }
        };
        PointerRebuilder.Report report = PointerRebuilder.builder(map, racing, Instant.now()).build().run(true);
        assertThat(gcInWindow.get().deleted()).as("GC deleted the blob inside the rebuilder's window")
                .extracting(StoredBlob::jobId).containsExactly(JOB);
        assertThat(report.entries()).hasSize(1);
        PointerRebuilder.Entry entry = report.entries().get(0);
        assertThat(entry.outcome()).as(entry.toString()).isEqualTo(PointerRebuilder.Outcome.FAILED);
        assertThat(entry.detail()).contains("the pointer was taken back");
        assertThat(map.get(JOB)).as("no pointer without its blob").isNull();
        real.close();
    }
}
