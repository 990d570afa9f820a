package io.jobinfo.store.seatunnel.dropin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.nio.serialization.HazelcastSerializationException;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.testing.RealSeaTunnelJob;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobs;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in's reads during a store outage, on a real local store holding a real SeaTunnel job. A read that hangs
 * cannot be produced on demand by the local store (the FUSE slow disk of jobinfo-store-local stalls fsyncs, not
 * reads), so {@link OutageStore} wraps the real store and holds or fails its reads while the test says so: the only
 * fake part, for the fault alone.
 */
class JobInfoResolverOutageTest {

    private static final long JOB = 4711L;

    @TempDir
    Path dir;
    private LocalJobInfoStore local;
    private OutageStore store;
    private JobInfoPointer pointer;
    private RealSeaTunnelJob job;
    private JobInfoResolver resolver;

    @BeforeEach
    void storeOneRealJob() throws Exception {
        local = LocalJobInfoStore.open(dir, null, true, true);
        job = SeaTunnelJobs.fakeToConsole(JOB, 2, 5, false);
        byte[] payload = job.bytes();
        long timestamp = 1_700_000_000_000L;
        EnvelopeHeader header = BlobEnvelope.headerFor(JOB, SeaTunnelJobDataCodec.ID, timestamp, payload);
        local.create(JOB, BlobSource.ofBytes(BlobEnvelope.wrap(JOB, SeaTunnelJobDataCodec.ID, timestamp, payload)));
        pointer = new JobInfoPointer(JOB, timestamp, local.storeId(), header);
        store = new OutageStore(local);
    }

    @AfterEach
    void close() throws Exception {
        store.heal();
        if (resolver != null) {
            resolver.close();
        }
        local.close();
    }

    private JobInfoResolver resolver(long readTimeoutMillis, long operationThreadWaitMillis) {
        CacheConfig cache = CacheConfig.of(16L << 20, 16L << 20, Duration.ofMinutes(10));
        resolver = new JobInfoResolver(store, cache, readTimeoutMillis, operationThreadWaitMillis, new DropInMetrics());
        return resolver;
    }

    /** Resolves on a thread named as Hazelcast names its partition threads; its outcome, or the thrown error. */
    private Object resolveOnPartitionThread(JobInfoResolver r) throws Exception {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                outcome.complete(r.resolve(pointer, SeaTunnelJobs.serializationService()));
            } catch (Throwable e) {
                outcome.complete(e);
            }
        }, "hz.test-member.partition-operation.thread-1");
        t.setDaemon(true);
        t.start();
        return outcome.get(60, TimeUnit.SECONDS);
    }

    @Test
    void aHangingReadHoldsAHazelcastOperationThreadOnlyForItsBoundAndIsCachedOnceTheStoreAnswers() throws Exception {
        JobInfoResolver r = resolver(600_000, 1_000);
        store.hang();
        long start = System.nanoTime();
        Object first = resolveOnPartitionThread(r);
        long heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(first).isInstanceOf(HazelcastSerializationException.class);
        assertThat(((Throwable) first).getMessage()).contains("job " + JOB).contains("within 1000 ms")
                .contains("partition-operation").contains(DropInSettings.OPERATION_THREAD_WAIT);
        assertThat(heldMillis).as("how long the partition thread was held").isLessThan(30_000);
        // the load goes on off the partition thread; once the store answers, the job is cached
        store.heal();
        Object job = resolveOnPartitionThread(r);
        assertThat(job).isInstanceOf(JobImmutableInformation.class);
        assertThat(((JobImmutableInformation) job).getJobId()).isEqualTo(JOB);
        assertThat(store.reads.get()).as("store reads: the hanging one, shared by both calls").isEqualTo(1);
    }

    @Test
    void aStoreThatFailsForAWhileIsWaitedOutByARestoreAndTheJobComesBack() throws Exception {
        JobInfoResolver r = resolver(60_000, 1_000);
        store.failFor(Duration.ofSeconds(3));
        Object job = r.resolve(pointer, SeaTunnelJobs.serializationService());
        assertThat(((JobImmutableInformation) job).getJobId()).isEqualTo(JOB);
        assertThat(store.failed.get()).as("reads the outage failed").isGreaterThan(1);
    }

    @Test
    void pastTheReadTimeoutTheJobFailsNamingTheStoreLocationAndTheRemedy() {
        JobInfoResolver r = resolver(1_000, 1_000);
        store.failFor(Duration.ofMinutes(5));
        assertThatThrownBy(() -> r.resolve(pointer, SeaTunnelJobs.serializationService()))
                .isInstanceOf(HazelcastSerializationException.class)
                .hasMessageContaining("job " + JOB)
                .hasMessageContaining(local.location(JOB).toString())
                .hasMessageContaining("make the store reachable, then resubmit the job");
    }

    @Test
    void theDefaultReadTimeoutWaitsOutAnOutageOfTenMinutes() {
        assertThat(DropInSettings.fromRoot(new org.yaml.snakeyaml.Yaml().load("""
                seatunnel:
                  engine:
                    jobinfo-storage:
                      type: local
                      namespace: %s
                """.formatted(dir)), "seatunnel.yaml", new java.util.Properties()).readTimeoutMillis())
                .isGreaterThanOrEqualTo(Duration.ofMinutes(10).toMillis());
    }

    /** The real store, whose reads hang or fail while the test says so (the fault alone is produced here). */
    static final class OutageStore extends ForwardingJobInfoStore {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        private final AtomicReference<CountDownLatch> hang = new AtomicReference<>();
        private volatile long failUntil;

        OutageStore(JobInfoStore delegate) {
            super(delegate);
        }

        void hang() {
            hang.set(new CountDownLatch(1));
        }

        void failFor(Duration d) {
            failUntil = System.nanoTime() + d.toNanos();
        }

        void heal() {
            failUntil = 0;
            CountDownLatch l = hang.getAndSet(null);
            if (l != null) {
                l.countDown();
            }
        }

        @Override
        public VerifiedBlob read(long jobId) throws JobInfoStoreException {
            reads.incrementAndGet();
            CountDownLatch l = hang.get();
            if (l != null) {
                try {
                    l.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new JobInfoStoreException("interrupted", jobId, location(jobId));
                }
            }
            if (failUntil != 0 && System.nanoTime() - failUntil < 0) {
                failed.incrementAndGet();
                throw new JobInfoStoreException("the store is down (test outage)", jobId, location(jobId));
            }
            return super.read(jobId);
        }
    }
}
