package io.jobinfo.store.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.SealedEnvelope;
import io.jobinfo.store.lifecycle.DeleteClaims;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.LockClaims;
import io.jobinfo.store.lifecycle.ReferenceWrite;
import io.jobinfo.store.lifecycle.ReferenceWrite.Outcome;
import io.jobinfo.store.lifecycle.ReferenceWrite.State;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write half of the pointer lifecycle ({@link ReferenceWrite}), which the migrator and the drop-in's move both run,
 * on a real two-member cluster and a real local store, with the drop-in's claims ({@link LockClaims}). Each race is
 * made deterministic: the entry is changed exactly between the blob write and the compare-and-set. The map's values
 * here are strings ({@code inline:<job>}) and pointers: the protocol never reads them, its {@link ReferenceWrite.Entry}
 * does.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ReferenceWriteTest {

    private static final long ID = 42L;
    private static final String JOB = "inline:the job";

    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    private IMap<Long, Object> map;
    private LocalJobInfoStore store;
    private LockClaims claims;

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(2);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void fresh() throws Exception {
        String name = "refwrite-" + System.nanoTime();
        map = cluster.master().getMap(name);
        store = LocalJobInfoStore.open(dir.resolve("store"), null, true, true);
        claims = new LockClaims(cluster.master(), name + "-claims", name,
                id -> map.get(id) instanceof JobInfoPointer, 200);
        map.put(ID, JOB);
    }

    @AfterEach
    void drop() throws Exception {
        map.destroy();
        store.close();
    }

    private static SealedEnvelope blob(String job) {
        byte[] payload = job.getBytes(StandardCharsets.UTF_8);
        byte[] buffer = new byte[EnvelopeHeader.LENGTH + payload.length];
        System.arraycopy(payload, 0, buffer, EnvelopeHeader.LENGTH, payload.length);
        return BlobEnvelope.seal(ID, 7, 1234L, EncodedPayload.of(buffer, EnvelopeHeader.LENGTH, payload.length));
    }

    /** The entry as a writer of {@link #JOB} sees it. */
    private ReferenceWrite.Entry entry() {
        return new ReferenceWrite.Entry() {
            @Override
            public boolean replace(JobInfoPointer pointer) {
                return map.replace(ID, JOB, pointer);
            }

            @Override
            public State state(JobInfoPointer pointer) {
                Object now = map.get(ID);
                if (now == null) {
                    return State.GONE;
                }
                if (now instanceof JobInfoPointer) {
                    return now.equals(pointer) ? State.REFERENCE_WRITTEN : State.OTHER_REFERENCE;
                }
                return JOB.equals(now) ? State.SAME_INLINE : State.OTHER_INLINE;
            }
        };
    }

    private ReferenceWrite writer(JobInfoStore on) {
        return ReferenceWrite.builder(on, claims).build();
    }

    private static ReferenceWrite.Steps beforeReplace(Runnable r) {
        return new ReferenceWrite.Steps() {
            @Override
            public void beforeReplace(long jobId) {
                r.run();
            }
        };
    }

    @Test
    void theBlobIsWrittenFirstAndTheReferenceReplacesTheInlineValue() throws Exception {
        int[] blobsBeforeReplace = {-1};
        ReferenceWrite.Result r = writer(store).write(ID, blob(JOB), entry(), beforeReplace(() -> {
            try {
                blobsBeforeReplace[0] = store.list().size();
            } catch (JobInfoStoreException e) {
                throw new IllegalStateException(e);
            }
        }));

        assertThat(blobsBeforeReplace[0]).as("the blob is complete before the compare-and-set").isEqualTo(1);

        assertThat(r.outcome()).isEqualTo(Outcome.WRITTEN);
        assertThat(r.created()).isTrue();
        assertThat(map.get(ID)).isEqualTo(r.pointer());
        assertThat(r.pointer().matches(store.read(ID).header())).isTrue();
    }

    @Test
    void otherBytesUnderTheIdAreAConflictThatChangesNothingByDefault() throws Exception {
        store.create(ID, blob("inline:an earlier job"));

        ReferenceWrite.Result r = writer(store).write(ID, blob(JOB), entry(), null);

        assertThat(r.outcome()).isEqualTo(Outcome.CONFLICT);
        assertThat(map.get(ID)).isEqualTo(JOB);
        assertThat(new String(store.read(ID).payload(), StandardCharsets.UTF_8)).isEqualTo("inline:an earlier job");
    }

    @Test
    void anUnreferencedEarlierBlobIsReplacedWhenTheWriterAsks() throws Exception {
        store.create(ID, blob("inline:an earlier job"));

        ReferenceWrite.Result r = ReferenceWrite.builder(store, claims).replaceUnreferencedConflicts().build()
                .write(ID, blob(JOB), entry(), null);

        assertThat(r.outcome()).isEqualTo(Outcome.WRITTEN);
        assertThat(r.detail()).contains("earlier job");
        assertThat(new String(store.read(ID).payload(), StandardCharsets.UTF_8)).isEqualTo(JOB);
        assertThat(map.get(ID)).isEqualTo(r.pointer());
    }

    @Test
    void anEntryRemovedBeforeTheCompareAndSetLeavesNoBlob() throws Exception {
        ReferenceWrite.Result r = writer(store).write(ID, blob(JOB), entry(), beforeReplace(() -> map.remove(ID)));

        assertThat(r.outcome()).isEqualTo(Outcome.ENTRY_GONE);
        assertThat(r.leftForGc()).isFalse();
        assertThat(store.list()).as("the blob of a job that ended while it was written").isEmpty();
        assertThat(map.containsKey(ID)).isFalse();
    }

    @Test
    void anotherJobsInlineValueUnderTheIdGetsNoReferenceAndTheBlobWrittenGoes() throws Exception {
        ReferenceWrite.Result r = writer(store).write(ID, blob(JOB), entry(),
                beforeReplace(() -> map.put(ID, "inline:another job under the id")));

        assertThat(r.outcome()).isEqualTo(Outcome.CHANGED);
        assertThat(map.get(ID)).isEqualTo("inline:another job under the id");
        assertThat(store.list()).as("nobody's blob").isEmpty();
    }

    @Test
    void aReferencePutByAnotherWriterKeepsTheBlob() throws Exception {
        JobInfoPointer other = new JobInfoPointer(ID, 1234L, store.storeId(), blob("inline:x").header());
        ReferenceWrite.Result r = writer(store).write(ID, blob(JOB), entry(), beforeReplace(() -> map.put(ID, other)));

        assertThat(r.outcome()).isEqualTo(Outcome.BECAME_REFERENCE);
        assertThat(store.list()).as("the blob may be that reference's").hasSize(1);
    }

    @Test
    void anIdHeldByADeleteIsBusyAndNothingIsWritten() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        // a delete holds the id's lock on another thread (locks are per thread)
        CompletableFuture<Void> deleter = CompletableFuture.runAsync(() -> {
            DeleteClaims.WriteHold hold = claims.holdForWrite(ID);
            held.countDown();
            try {
                done.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                hold.release();
            }
        });
        held.await(1, TimeUnit.MINUTES);
        try {
            ReferenceWrite.Result r = writer(store).write(ID, blob(JOB), entry(), null);

            assertThat(r.outcome()).isEqualTo(Outcome.BUSY);
            assertThat(store.list()).isEmpty();
            assertThat(map.get(ID)).isEqualTo(JOB);
        } finally {
            done.countDown();
            deleter.get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void aCompareAndSetWhoseAnswerIsLostIsDecidedByTheMap() throws Exception {
        ReferenceWrite.Entry lostAnswer = new ReferenceWrite.Entry() {
            @Override
            public boolean replace(JobInfoPointer pointer) {
                map.replace(ID, JOB, pointer);
                throw new IllegalStateException("the answer of the replace was lost");
            }

            @Override
            public State state(JobInfoPointer pointer) {
                return entry().state(pointer);
            }
        };

        ReferenceWrite.Result r = writer(store).write(ID, blob(JOB), lostAnswer, null);

        assertThat(r.outcome()).isEqualTo(Outcome.WRITTEN);
        assertThat(store.list()).hasSize(1);
    }

    /**
     * A store that writes the blob and then reports an unknown outcome. A fake on top of the real local store: no real
     * backend loses the answer of a write on demand.
     */
    @Test
    void aWriteOfUnknownOutcomeKeepsTheBlobAndTheEntryInline() throws Exception {
        JobInfoStore unknown = new ForwardingJobInfoStore(store) {
            @Override
            public CreateOutcome create(long jobId, BlobSource blob) throws JobInfoStoreException {
                super.create(jobId, blob);
                throw new OutcomeUnknownException("the answer of the write was lost", jobId, location(jobId), null);
            }
        };

        ReferenceWrite.Result r = writer(unknown).write(ID, blob(JOB), entry(), null);

        assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
        assertThat(map.get(ID)).isEqualTo(JOB);
        assertThat(store.list()).as("outcome unknown is never safe to clean up").hasSize(1);
    }
}
