package io.jobinfo.store.seatunnel.dropin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobs;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How many jobs the drop-in's resolver loads at once: as many as its store suggests
 * ({@link JobInfoStore#suggestedReadParallelism()}), so that a restore from an object store keeps enough GETs in
 * flight to hide their latency (it was 8 whatever the store). Real local store and real SeaTunnel jobs; the store's
 * reads are held open by {@link HeldReads} until the test has counted the ones in flight, which no real store does on
 * demand (the only fake part).
 */
class JobInfoResolverReadersTest {

    @TempDir
    Path dir;

    @Test
    void aRestoreLoadsAsManyJobsAtOnceAsTheStoreSuggestsAndNoMore() throws Exception {
        int suggested = 12;
        int jobs = suggested + 8;
        try (LocalJobInfoStore local = LocalJobInfoStore.open(dir, null, true, true)) {
            List<JobInfoPointer> pointers = new ArrayList<>();
            for (long id = 1; id <= jobs; id++) {
                pointers.add(store(local, id));
            }
            HeldReads store = new HeldReads(local, suggested);
            CacheConfig cache = CacheConfig.of(64L << 20, 16L << 20, Duration.ofMinutes(10));
            try (JobInfoResolver resolver = new JobInfoResolver(store, cache, 60_000, 1_000, new DropInMetrics())) {
                List<CompletableFuture<Object>> restored = new ArrayList<>();
                for (JobInfoPointer p : pointers) {
                    restored.add(CompletableFuture.supplyAsync(
                            () -> resolver.resolve(p, SeaTunnelJobs.serializationService()), runOwnThread()));
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (store.inFlight.get() < suggested && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertThat(store.inFlight.get()).as("reads in flight at once").isEqualTo(suggested);
                Thread.sleep(300); // the 8 callers left over wait for a reader thread, not beside the others
                assertThat(store.maxInFlight.get()).as("most reads in flight at once").isEqualTo(suggested);
                store.release.countDown();
                for (int i = 0; i < jobs; i++) {
                    Object job = restored.get(i).get(60, TimeUnit.SECONDS);
                    assertThat(((JobImmutableInformation) job).getJobId()).isEqualTo(pointers.get(i).jobId());
                }
                assertThat(store.reads.get()).as("store reads, one per job").isEqualTo(jobs);
            }
        }
    }

    @Test
    void theReaderCountIsTheStoresSuggestionBoundedToASaneRange() throws Exception {
        try (LocalJobInfoStore local = LocalJobInfoStore.open(dir, null, true, true)) {
            assertThat(JobInfoResolver.readerThreads(local)).as("a local store's default").isEqualTo(8);
            assertThat(JobInfoResolver.readerThreads(new HeldReads(local, 0))).isEqualTo(1);
            assertThat(JobInfoResolver.readerThreads(new HeldReads(local, 100_000)))
                    .isEqualTo(JobInfoStore.MAX_READ_PARALLELISM);
        }
    }

    private static JobInfoPointer store(LocalJobInfoStore local, long id) throws Exception {
        byte[] payload = SeaTunnelJobs.fakeToConsole(id, 2, 5, false).bytes();
        long timestamp = 1_700_000_000_000L + id;
        EnvelopeHeader header = BlobEnvelope.headerFor(id, SeaTunnelJobDataCodec.ID, timestamp, payload);
        local.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, SeaTunnelJobDataCodec.ID, timestamp, payload)));
        return new JobInfoPointer(id, timestamp, local.storeId(), header);
    }

    /** Each caller on a thread of its own, as SeaTunnel's restore threads and REST handlers are. */
    private static java.util.concurrent.Executor runOwnThread() {
        return command -> {
            Thread t = new Thread(command, "restore-caller");
            t.setDaemon(true);
            t.start();
        };
    }

    /** The real store, suggesting {@code suggested} readers, whose reads wait for the test's release. */
    static final class HeldReads extends ForwardingJobInfoStore {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        private final int suggested;

        HeldReads(JobInfoStore delegate, int suggested) {
            super(delegate);
            this.suggested = suggested;
        }

        @Override
        public int suggestedReadParallelism() {
            return suggested;
        }

        @Override
        public VerifiedBlob read(long jobId) throws JobInfoStoreException {
            reads.incrementAndGet();
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                if (!release.await(60, TimeUnit.SECONDS)) {
                    throw new JobInfoStoreException("the test never released its reads", jobId, location(jobId));
                }
                return super.read(jobId);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JobInfoStoreException("interrupted", jobId, location(jobId));
            } finally {
                inFlight.decrementAndGet();
            }
        }
    }
}
