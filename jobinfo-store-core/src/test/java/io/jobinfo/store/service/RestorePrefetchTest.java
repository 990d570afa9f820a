package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.jobinfo.store.spi.testing.TestBlobs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restore's prefetch ({@link RestorePrefetch}) on a real member and a real local store. The listing of the map is
 * held until the prefetch has read everything it will read (the hook {@link RegistryRestorer#beforeListing}), which
 * is what a master kill does for a few hundred milliseconds (Hazelcast's partition repair) but not on demand. Shown:
 * every job is taken from the prefetch and read once; a blob with no pointer is read for nothing and not restored; a
 * blob that is valid but not its pointer's, and a damaged one, are read again by the restore's own load and reported
 * as before; jobs the cache holds are not read ahead; the byte bound and {@code 0} (off) hold, and the store is
 * listed only as far as the bound.
 */
class RestorePrefetchTest {

    private static final KryoJobInfoCodec<TestJob> CODEC = TestJob.codec();
    private static final int JOB_BYTES = 20_000;
    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(1);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private Map<Long, TestJob> submit(LocalJobInfoStore store, String map, int jobs)
            throws Exception {
        TestJobGenerator generator = new TestJobGenerator(11);
        Map<Long, TestJob> submitted = new LinkedHashMap<>();
        try (RunningJobInfoRegistry<TestJob> writer = RunningJobInfoRegistry
                .builder(cluster.master(), store, CODEC).mapName(map).build()) {
            for (long id = 1; id <= jobs; id++) {
                TestJob job = generator.generate(id, JOB_BYTES);
                writer.submit(id, job);
                submitted.put(id, job);
            }
        }
        return submitted;
    }

    /** A valid envelope of a job of its own for {@code jobId}, written straight into the store. */
    private static byte[] envelopeOfAnotherJob(long jobId) {
        return BlobEnvelope.wrap(jobId, CODEC.id(), CODEC.encode(new TestJobGenerator(99).generate(jobId, JOB_BYTES)));
    }

    private static double counter(SimpleMeterRegistry meters, String name, String map) {
        return meters.get(name).tag("map", map).counter().count();
    }

    @Test
    void whileTheListingWaitsEveryJobIsTakenFromThePrefetchAndReadOnce() throws Exception {
        try (LocalJobInfoStore local = LocalJobInfoStore.open(dir.resolve("s"), null, true, true)) {
            Map<Long, TestJob> submitted = submit(local, "prefetch-all", 20);
            local.create(999, BlobSource.ofBytes(envelopeOfAnotherJob(999))); // no pointer: an orphan
            ReadCountingStore store = new ReadCountingStore(local);
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            try (RunningJobInfoRegistry<TestJob> reader = RunningJobInfoRegistry
                    .builder(cluster.master(), store, CODEC).mapName("prefetch-all").meterRegistry(meters)
                    .readVerification(ReadVerification.FULL).build()) {
                reader.restorer().beforeListing = p -> {
                    assertThat(await(p)).as("prefetch finished").isTrue();
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L); // a listing that waits 200 ms
                };
                Map<Long, TestJob> restored = new ConcurrentHashMap<>();
                RestoreReport report = reader.restoreAll((id, ts, job) -> restored.put(id, job));

                assertThat(report.failed()).isEmpty();
                assertThat(report.listing()).as("the listing, the prefetch's wait in it")
                        .isGreaterThanOrEqualTo(java.time.Duration.ofMillis(200))
                        .isLessThanOrEqualTo(report.duration());
                assertThat(restored).isEqualTo(submitted);
                assertThat(store.reads()).as("20 jobs and the orphan, each read once").isEqualTo(21);
                assertThat(counter(meters, "jobinfo.restore.prefetch.reads", "prefetch-all")).isEqualTo(21);
                assertThat(counter(meters, "jobinfo.restore.prefetch.used", "prefetch-all")).isEqualTo(20);
                // the jobs are cached as after any restore: a get reads nothing
                assertThat(reader.get(7)).contains(submitted.get(7L));
                assertThat(store.reads()).isEqualTo(21);
            }
        }
    }

    /**
     * A restore on a warm cache (a member that served reads before it became master): the jobs the cache holds are
     * not read ahead, and only what the restore loads from the prefetch counts as used (before, a second restore read
     * every blob ahead again and counted all of them as used while the cache served them).
     */
    @Test
    void jobsTheCacheAlreadyHoldsAreNotReadAheadNorCountedAsUsed() throws Exception {
        try (LocalJobInfoStore local = LocalJobInfoStore.open(dir.resolve("w"), null, true, true)) {
            Map<Long, TestJob> submitted = submit(local, "prefetch-warm", 10);
            ReadCountingStore store = new ReadCountingStore(local);
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            try (RunningJobInfoRegistry<TestJob> reader = RunningJobInfoRegistry
                    .builder(cluster.master(), store, CODEC).mapName("prefetch-warm").meterRegistry(meters)
                    .build()) {
                for (long id = 1; id <= 4; id++) {
                    assertThat(reader.get(id)).contains(submitted.get(id)); // cached before the restore
                }
                assertThat(store.reads()).isEqualTo(4);
                reader.restorer().beforeListing = p -> assertThat(await(p)).isTrue();
                Map<Long, TestJob> restored = new ConcurrentHashMap<>();
                RestoreReport report = reader.restoreAll((id, ts, job) -> restored.put(id, job));

                assertThat(report.failed()).isEmpty();
                assertThat(restored).isEqualTo(submitted);
                assertThat(store.reads()).as("the 6 jobs not cached, each read once").isEqualTo(10);
                assertThat(counter(meters, "jobinfo.restore.prefetch.reads", "prefetch-warm")).isEqualTo(6);
                assertThat(counter(meters, "jobinfo.restore.prefetch.used", "prefetch-warm")).isEqualTo(6);

                // again, everything cached now: nothing read ahead, nothing used
                RestoreReport again = reader.restoreAll((id, ts, job) -> { });
                assertThat(again.failed()).isEmpty();
                assertThat(again.restored()).hasSize(10);
                assertThat(store.reads()).isEqualTo(10);
                assertThat(counter(meters, "jobinfo.restore.prefetch.reads", "prefetch-warm")).isEqualTo(6);
                assertThat(counter(meters, "jobinfo.restore.prefetch.used", "prefetch-warm")).isEqualTo(6);
            }
        }
    }

    @Test
    void aBlobThatIsNotItsPointersOrIsDamagedIsReadAgainByTheRestoreAndReported() throws Exception {
        try (LocalJobInfoStore local = LocalJobInfoStore.open(dir.resolve("m"), null, true, true)) {
            Map<Long, TestJob> submitted = submit(local, "prefetch-mismatch", 6);
            // job 2: a valid blob of other content (its own checksums pass; its pointer's do not match)
            Files.delete(local.path(2));
            local.create(2, BlobSource.ofBytes(envelopeOfAnotherJob(2)));
            // job 3: one bit flipped in its payload
            Path three = local.path(3);
            byte[] bytes = Files.readAllBytes(three);
            Files.delete(three);
            Files.write(three, TestBlobs.flipBit(bytes, (bytes.length - 10) * 8L));
            ReadCountingStore store = new ReadCountingStore(local);
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            try (RunningJobInfoRegistry<TestJob> reader = RunningJobInfoRegistry
                    .builder(cluster.master(), store, CODEC).mapName("prefetch-mismatch").meterRegistry(meters)
                    .build()) {
                reader.restorer().beforeListing = p -> assertThat(await(p)).isTrue();
                Map<Long, TestJob> restored = new ConcurrentHashMap<>();
                RestoreReport report = reader.restoreAll((id, ts, job) -> restored.put(id, job));

                assertThat(report.failed()).containsOnlyKeys(2L, 3L);
                assertThat(report.failed().get(2L)).isInstanceOf(CorruptBlobException.class)
                        .hasMessageContaining("does not match its pointer");
                assertThat(report.failed().get(3L)).isInstanceOf(CorruptBlobException.class);
                assertThat(restored).containsOnlyKeys(1L, 4L, 5L, 6L);
                restored.forEach((id, job) -> assertThat(job).isEqualTo(submitted.get(id)));
                assertThat(store.reads()).as("6 prefetched, jobs 2 and 3 read again").isEqualTo(8);
                assertThat(counter(meters, "jobinfo.restore.prefetch.used", "prefetch-mismatch")).isEqualTo(4);
            }
        }
    }

    @Test
    void theByteBoundLimitsThePrefetchAndZeroTurnsItOff() throws Exception {
        try (LocalJobInfoStore local = LocalJobInfoStore.open(dir.resolve("b"), null, true, true)) {
            Map<Long, TestJob> submitted = submit(local, "prefetch-bound", 10);
            long blobBytes = Files.size(local.path(1));
            for (long bound : new long[] {3 * blobBytes + 100, 0}) {
                ReadCountingStore store = new ReadCountingStore(local);
                SimpleMeterRegistry meters = new SimpleMeterRegistry();
                try (RunningJobInfoRegistry<TestJob> reader = RunningJobInfoRegistry
                        .builder(cluster.master(), store, CODEC).mapName("prefetch-bound").meterRegistry(meters)
                        .restorePrefetch(bound).build()) {
                    reader.restorer().beforeListing = p -> assertThat(await(p)).isTrue();
                    Map<Long, TestJob> restored = new ConcurrentHashMap<>();
                    RestoreReport report = reader.restoreAll((id, ts, job) -> restored.put(id, job));
                    assertThat(report.failed()).isEmpty();
                    assertThat(restored).isEqualTo(submitted);
                    long expected = bound == 0 ? 0 : 3;
                    assertThat(counter(meters, "jobinfo.restore.prefetch.reads", "prefetch-bound"))
                            .as("prefetch reads with a bound of %d bytes", bound).isEqualTo(expected);
                    assertThat(store.reads()).isEqualTo(10);
                    // listed only as far as the bound: three blobs that fit and the one that did not
                    assertThat(store.listedEntries()).as("entries listed with a bound of %d bytes", bound)
                            .isEqualTo(bound == 0 ? 0 : 4);
                    assertThat(store.wholeListings()).isZero();
                }
            }
        }
    }

    private static boolean await(RestorePrefetch<?> prefetch) {
        try {
            return prefetch.awaitDone(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
