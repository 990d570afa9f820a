package io.jobinfo.store.spi.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.spi.StoredBlob;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link JobInfoStore} backend must show. A backend's test extends this class and says how to
 * configure a store in a fresh namespace and how to change stored bytes behind the store's back.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
public abstract class AbstractJobInfoStoreContractTest {

    /** Where a forged leftover entry claims to be: no store's namespace. */
    private static final Location FORGED = Location.of("forged:/elsewhere/.tmp-0000000000000047-x");

    /** The store under test, in a fresh namespace for each test. */
    protected JobInfoStore store;

    /**
     * Configuration of a store whose namespace ends with the path segment {@code namespaceName} (which may hold
     * spaces and non-ASCII characters), fresh for each call. The contract opens it through {@link JobInfoStores}.
     */
    protected abstract JobInfoStorageConfig storeConfig(String namespaceName);

    /** Replaces the stored bytes of {@code jobId} in {@code store}, bypassing the store (to simulate damage). */
    protected abstract void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) throws Exception;

    /** Size of the large-blob test. At least 64 MiB for every backend. */
    protected long largeBlobBytes() {
        return (64L << 20) + 12345;
    }

    /** Rounds of the 8-thread create race. */
    protected int raceRounds() {
        return 5;
    }

    /**
     * Payload size of each racing creator in round {@code round} (0-based) of the 8-thread create race; 64 KiB by
     * default. A backend whose large blobs take another write path (S3 multipart uploads) returns a size above its
     * threshold for some rounds, so that the race covers that path too.
     */
    protected int racePayloadBytes(int round) {
        return 64 * 1024;
    }

    @BeforeEach
    void openStore() throws Exception {
        store = open("ns-" + UUID.randomUUID());
    }

    @AfterEach
    void closeStore() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    protected JobInfoStore open(String namespaceName) throws JobInfoStoreException {
        return JobInfoStores.open(storeConfig(namespaceName));
    }

    // ---------------------------------------------------------------- round trip and write-once

    @Test
    void roundTripReturnsTheSameBytes() throws Exception {
        byte[] payload = TestBlobs.randomPayload(1, 200_000);
        byte[] envelope = BlobEnvelope.wrap(42, 1, payload);

        assertThat(store.create(42, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);

        VerifiedBlob blob = store.read(42);
        assertThat(blob.payload()).isEqualTo(payload);
        assertThat(blob.header().jobId()).isEqualTo(42);
        assertThat(blob.location()).isEqualTo(store.location(42));
        ByteArrayOutputStream streamed = new ByteArrayOutputStream();
        try (InputStream raw = store.openRaw(42)) {
            assertThat(BlobEnvelope.copyVerified(raw, streamed, 42).payloadLength()).isEqualTo(payload.length);
        }
        assertThat(streamed.toByteArray()).isEqualTo(payload);
        try (InputStream raw = store.openRaw(42)) {
            assertThat(raw.readAllBytes()).isEqualTo(envelope);
        }
    }

    @Test
    void emptyPayloadRoundTrips() throws Exception {
        store.create(7, BlobSource.ofBytes(BlobEnvelope.wrap(7, 1, new byte[0])));
        assertThat(store.read(7).payload()).isEmpty();
    }

    @Test
    void secondCreateWithSameBytesIsANoOp() throws Exception {
        byte[] envelope = BlobEnvelope.wrap(5, 1, TestBlobs.randomPayload(2, 10_000));
        assertThat(store.create(5, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
        assertThat(store.create(5, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
        assertThat(store.read(5).payload()).isEqualTo(Arrays.copyOfRange(envelope, EnvelopeHeader.LENGTH,
                envelope.length));
    }

    @Test
    void secondCreateWithOtherBytesFailsAndKeepsTheFirst() throws Exception {
        byte[] first = TestBlobs.randomPayload(3, 10_000);
        byte[] second = TestBlobs.randomPayload(4, 10_000);
        store.create(6, BlobSource.ofBytes(BlobEnvelope.wrap(6, 1, first)));

        assertThatThrownBy(() -> store.create(6, BlobSource.ofBytes(BlobEnvelope.wrap(6, 1, second))))
                .isInstanceOf(BlobAlreadyExistsException.class)
                .hasMessageContaining("jobId=6")
                .hasMessageContaining(store.location(6).toString());
        assertThat(store.read(6).payload()).isEqualTo(first);
    }

    @Test
    void createRefusesBytesThatAreNotAnEnvelopeForThatJob() throws Exception {
        assertThatThrownBy(() -> store.create(8, BlobSource.ofBytes(TestBlobs.randomPayload(5, 500))))
                .isInstanceOf(CorruptBlobException.class).hasMessageContaining("jobId=8");
        byte[] otherJob = BlobEnvelope.wrap(9, 1, TestBlobs.randomPayload(6, 500));
        assertThatThrownBy(() -> store.create(8, BlobSource.ofBytes(otherJob)))
                .isInstanceOf(CorruptBlobException.class).hasMessageContaining("job 9");
        byte[] truncated = Arrays.copyOf(BlobEnvelope.wrap(8, 1, TestBlobs.randomPayload(7, 500)), 300);
        assertThatThrownBy(() -> store.create(8, BlobSource.ofBytes(truncated)))
                .isInstanceOf(CorruptBlobException.class);
        assertThatThrownBy(() -> store.read(8)).isInstanceOf(BlobNotFoundException.class);
        assertThat(completeBlobs()).isEmpty();
    }

    @Test
    void eightRacingCreatorsHaveExactlyOneWinnerAndReadersNeverSeePartialBytes() throws Exception {
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        try {
            for (int round = 0; round < raceRounds(); round++) {
                long jobId = 1000 + round;
                byte[][] envelopes = new byte[writers][];
                for (int i = 0; i < writers; i++) {
                    envelopes[i] = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(round * 100 + i,
                            racePayloadBytes(round)));
                }
                CyclicBarrier start = new CyclicBarrier(writers + 1);
                AtomicBoolean writing = new AtomicBoolean(true);
                List<Future<CreateOutcome>> results = new ArrayList<>();
                for (int i = 0; i < writers; i++) {
                    byte[] mine = envelopes[i];
                    results.add(pool.submit(() -> {
                        start.await();
                        try {
                            return store.create(jobId, BlobSource.ofBytes(mine));
                        } catch (BlobAlreadyExistsException e) {
                            return null;
                        }
                    }));
                }
                List<byte[]> seen = new ArrayList<>();
                Future<?> reader = pool.submit(() -> {
                    start.await();
                    while (writing.get()) {
                        try {
                            seen.add(store.read(jobId).payload());
                        } catch (BlobNotFoundException expectedUntilTheWinnerLands) {
                            Thread.onSpinWait();
                        }
                    }
                    return null;
                });
                int winners = 0;
                for (Future<CreateOutcome> r : results) {
                    CreateOutcome outcome = r.get(2, TimeUnit.MINUTES);
                    if (outcome != null) {
                        assertThat(outcome).isEqualTo(CreateOutcome.CREATED);
                        winners++;
                    }
                }
                writing.set(false);
                reader.get(2, TimeUnit.MINUTES); // a CorruptBlobException (partial bytes) would surface here
                assertThat(winners).as("winners in round %d", round).isEqualTo(1);
                byte[] stored = store.read(jobId).payload();
                assertThat(Arrays.stream(envelopes).filter(e -> Arrays.equals(stored,
                        Arrays.copyOfRange(e, EnvelopeHeader.LENGTH, e.length))).count()).isEqualTo(1);
                for (byte[] s : seen) {
                    assertThat(s).isEqualTo(stored);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBlobIsNotVisibleUntilItsWriteCompletes() throws Exception {
        byte[] envelope = BlobEnvelope.wrap(77, 1, TestBlobs.randomPayload(8, 1 << 20));
        CountDownLatch halfWritten = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        BlobSource slow = new BlobSource() {
            @Override
            public long length() {
                return envelope.length;
            }

            private int opens;

            @Override
            public synchronized InputStream open() {
                // first open: create's check of the whole envelope; second: the write, which pauses half-way
                return opens++ == 0 ? new java.io.ByteArrayInputStream(envelope)
                        : new TestBlobs.PausingInputStream(envelope, envelope.length / 2, halfWritten, release);
            }
        };
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<CreateOutcome> writer = pool.submit(() -> store.create(77, slow));
            assertThat(halfWritten.await(1, TimeUnit.MINUTES)).as("the writer consumed half the bytes").isTrue();

            assertThatThrownBy(() -> store.read(77)).isInstanceOf(BlobNotFoundException.class);
            assertThat(completeBlobs()).extracting(StoredBlob::jobId).doesNotContain(77L);

            release.countDown();
            assertThat(writer.get(2, TimeUnit.MINUTES)).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.read(77).payload()).hasSize(1 << 20);
            assertThat(store.list()).filteredOn(StoredBlob::incomplete).isEmpty();
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void createRefusesAnEnvelopeWhosePayloadDoesNotMatchItsHeaderAndStoresNothing() throws Exception {
        long jobId = 21;
        byte[] good = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(21, 50_000));
        byte[] payloadBitFlipped = TestBlobs.flipBit(good, (EnvelopeHeader.LENGTH + 1234) * 8L);
        byte[] wrongCrc = TestBlobs.withPayloadCrc32c(good, 0x12345678);
        byte[] wrongSha = TestBlobs.withPayloadSha256(good, new byte[32]);
        Map<String, BlobSource> bad = new java.util.LinkedHashMap<>();
        bad.put("CRC32C mismatch", BlobSource.ofBytes(payloadBitFlipped));
        bad.put("CRC32C mismatch ", BlobSource.ofBytes(wrongCrc));
        bad.put("SHA-256 mismatch", BlobSource.ofBytes(wrongSha));
        bad.put("truncated payload", TestBlobs.yieldingFewerBytes(good, 100));
        bad.put("trailing bytes", TestBlobs.yieldingMoreBytes(good, 7));
        for (Map.Entry<String, BlobSource> entry : bad.entrySet()) {
            assertThatThrownBy(() -> store.create(jobId, entry.getValue()))
                    .as(entry.getKey())
                    .isInstanceOf(CorruptBlobException.class)
                    .hasMessageContaining(entry.getKey().trim())
                    .hasMessageContaining("nothing was stored")
                    .hasMessageContaining("jobId=" + jobId);
            assertThatThrownBy(() -> store.read(jobId)).as(entry.getKey()).isInstanceOf(BlobNotFoundException.class);
            assertThat(store.list()).as(entry.getKey() + ": not even a leftover").isEmpty();
        }
        // the job id is not burnt: the intact envelope is accepted afterwards
        assertThat(store.create(jobId, BlobSource.ofBytes(good))).isEqualTo(CreateOutcome.CREATED);
        assertThat(store.read(jobId).payload()).isEqualTo(Arrays.copyOfRange(good, EnvelopeHeader.LENGTH,
                good.length));
    }

    @Test
    void aSealedEnvelopeIsStoredAndOneChangedAfterSealingIsRefused() throws Exception {
        long jobId = 23;
        byte[] payload = TestBlobs.randomPayload(23, 60_000);
        io.jobinfo.store.envelope.SealedEnvelope intact = seal(jobId, payload, withRoom(payload));
        assertThat(intact.asByteBuffer().remaining()).isEqualTo(EnvelopeHeader.LENGTH + payload.length);

        // a caller that keeps the buffer it sealed and changes it afterwards
        Map<String, Integer> changes = new java.util.LinkedHashMap<>();
        changes.put("payload byte", EnvelopeHeader.LENGTH + 4321);
        changes.put("header byte (initialization timestamp)", 70);
        for (Map.Entry<String, Integer> e : changes.entrySet()) {
            byte[] buffer = withRoom(payload);
            io.jobinfo.store.envelope.SealedEnvelope sealed = seal(jobId, payload, buffer);
            buffer[e.getValue()] ^= 0x10;
            assertThatThrownBy(() -> store.create(jobId, sealed)).as(e.getKey())
                    .isInstanceOf(CorruptBlobException.class)
                    .hasMessageContaining("changed after it was sealed")
                    .hasMessageContaining("nothing was stored");
            assertThat(store.list()).as(e.getKey() + ": not even a leftover").isEmpty();
        }
        assertThatThrownBy(() -> store.create(jobId + 1, seal(jobId, payload, withRoom(payload))))
                .isInstanceOf(CorruptBlobException.class).hasMessageContaining("under job " + (jobId + 1));

        assertThat(store.create(jobId, intact)).isEqualTo(CreateOutcome.CREATED);
        assertThat(store.read(jobId).payload()).isEqualTo(payload);
        assertThat(store.create(jobId, seal(jobId, payload, withRoom(payload))))
                .isEqualTo(CreateOutcome.ALREADY_PRESENT);
    }

    private static byte[] withRoom(byte[] payload) {
        byte[] buffer = new byte[EnvelopeHeader.LENGTH + payload.length];
        System.arraycopy(payload, 0, buffer, EnvelopeHeader.LENGTH, payload.length);
        return buffer;
    }

    private static io.jobinfo.store.envelope.SealedEnvelope seal(long jobId, byte[] payload, byte[] buffer) {
        return BlobEnvelope.seal(jobId, 1, 1_700_000_000_000L,
                io.jobinfo.store.codec.EncodedPayload.of(buffer, EnvelopeHeader.LENGTH, payload.length));
    }

    // ---------------------------------------------------------------- damage is detected

    @Test
    void everyKindOfDamageIsDetectedAndNamesJobAndLocation() throws Exception {
        byte[] payload = TestBlobs.randomPayload(9, 50_000);
        byte[] envelope = BlobEnvelope.wrap(11, 1, payload);
        Map<String, byte[]> damages = new HashMap<>();
        damages.put("bit flip in payload", TestBlobs.flipBit(envelope, EnvelopeHeader.LENGTH + 20_000 * 8 + 3));
        damages.put("bit flip in last byte", TestBlobs.flipBit(envelope, envelope.length * 8 - 1));
        damages.put("bit flip in header length", TestBlobs.flipBit(envelope, 20 * 8 + 60));
        damages.put("bit flip in sha", TestBlobs.flipBit(envelope, 40 * 8));
        damages.put("bad magic", TestBlobs.flipBit(envelope, 0));
        damages.put("truncated by one byte", Arrays.copyOf(envelope, envelope.length - 1));
        damages.put("truncated in header", Arrays.copyOf(envelope, 30));
        damages.put("empty", new byte[0]);
        damages.put("trailing garbage", Arrays.copyOf(envelope, envelope.length + 5));
        damages.put("blob of another job", BlobEnvelope.wrap(12, 1, payload));
        damages.put("unknown format version", TestBlobs.withVersion(envelope, 99));

        store.create(11, BlobSource.ofBytes(envelope));
        for (Map.Entry<String, byte[]> damage : damages.entrySet()) {
            overwriteStoredBytes(store, 11, damage.getValue());
            assertThatThrownBy(() -> store.read(11)).as(damage.getKey())
                    .isInstanceOf(CorruptBlobException.class)
                    .hasMessageContaining("jobId=11")
                    .hasMessageContaining(store.location(11).toString());
            assertThatThrownBy(() -> {
                try (InputStream raw = store.openRaw(11)) {
                    BlobEnvelope.copyVerified(raw, OutputStream.nullOutputStream(), 11);
                }
            }).as(damage.getKey()).isInstanceOf(io.jobinfo.store.envelope.EnvelopeFormatException.class);
        }
        overwriteStoredBytes(store, 11, TestBlobs.withVersion(envelope, 99));
        assertThatThrownBy(() -> store.read(11)).hasMessageContaining("unsupported format version 99");
    }

    @Test
    void createOverACorruptBlobFailsAndLeavesItForInspection() throws Exception {
        byte[] envelope = BlobEnvelope.wrap(13, 1, TestBlobs.randomPayload(10, 5_000));
        store.create(13, BlobSource.ofBytes(envelope));
        byte[] damaged = TestBlobs.flipBit(envelope, (EnvelopeHeader.LENGTH + 100) * 8);
        overwriteStoredBytes(store, 13, damaged);

        assertThatThrownBy(() -> store.create(13, BlobSource.ofBytes(envelope)))
                .isInstanceOf(CorruptBlobException.class).hasMessageContaining("left in place");
        try (InputStream raw = store.openRaw(13)) {
            assertThat(raw.readAllBytes()).isEqualTo(damaged);
        }
    }

    // ---------------------------------------------------------------- missing, delete, list

    @Test
    void aMissingBlobIsReportedAsNotFound() {
        assertThatThrownBy(() -> store.read(404)).isInstanceOf(BlobNotFoundException.class)
                .hasMessageContaining("jobId=404").hasMessageContaining(store.location(404).toString());
        assertThatThrownBy(() -> store.openRaw(404)).isInstanceOf(BlobNotFoundException.class);
    }

    @Test
    void deleteIsIdempotentAndTheJobIdCanBeUsedAgain() throws Exception {
        store.create(21, BlobSource.ofBytes(BlobEnvelope.wrap(21, 1, TestBlobs.randomPayload(11, 1000))));
        assertThat(store.delete(21)).isTrue();
        assertThat(store.delete(21)).isFalse();
        assertThat(store.delete(22)).isFalse();
        assertThatThrownBy(() -> store.read(21)).isInstanceOf(BlobNotFoundException.class);

        byte[] again = TestBlobs.randomPayload(12, 1000);
        assertThat(store.create(21, BlobSource.ofBytes(BlobEnvelope.wrap(21, 1, again))))
                .isEqualTo(CreateOutcome.CREATED);
        assertThat(store.read(21).payload()).isEqualTo(again);
    }

    @Test
    void listingShowsEveryBlobWithSizeAndTime() throws Exception {
        Instant before = Instant.now().minus(Duration.ofMinutes(5));
        Map<Long, Integer> sizes = Map.of(31L, 100, 32L, 2000, 33L, 30_000);
        for (Map.Entry<Long, Integer> e : sizes.entrySet()) {
            store.create(e.getKey(), BlobSource.ofBytes(
                    BlobEnvelope.wrap(e.getKey(), 1, TestBlobs.randomPayload(e.getValue(), e.getValue()))));
        }
        List<StoredBlob> listed = completeBlobs();
        assertThat(listed).extracting(StoredBlob::jobId).containsExactlyInAnyOrder(31L, 32L, 33L);
        for (StoredBlob b : listed) {
            assertThat(b.sizeBytes()).isEqualTo(EnvelopeHeader.LENGTH + sizes.get(b.jobId()));
            assertThat(b.location()).isEqualTo(store.location(b.jobId()));
            assertThat(b.lastModified()).isAfter(before).isBefore(Instant.now().plus(Duration.ofMinutes(5)));
        }
        assertThatThrownBy(() -> store.deleteIncomplete(listed.get(0)))
                .isInstanceOf(IllegalArgumentException.class);
        store.delete(32);
        assertThat(completeBlobs()).extracting(StoredBlob::jobId).containsExactlyInAnyOrder(31L, 33L);
    }

    /**
     * A leftover entry is handed back by callers, who may have built it themselves: its token is checked again, and
     * a forged one (a traversal, another job's, a complete blob's name, none) is refused without deleting anything.
     */
    @Test
    void aForgedLeftoverIsRefusedAndDeletesNothing() throws Exception {
        store.create(71, BlobSource.ofBytes(BlobEnvelope.wrap(71, 1, TestBlobs.randomPayload(71, 500))));
        store.create(72, BlobSource.ofBytes(BlobEnvelope.wrap(72, 1, TestBlobs.randomPayload(72, 500))));
        Instant now = Instant.now();
        List<StoredBlob> forged = new java.util.ArrayList<>(List.of(
                StoredBlob.leftover(71, FORGED, 0, now, "../.tmp-0000000000000047-x"),
                StoredBlob.leftover(71, FORGED, 0, now, ".tmp-0000000000000047-x/../0000000000000047.jobinfo"),
                StoredBlob.leftover(71, FORGED, 0, now, ".tmp-0000000000000048-x"),
                StoredBlob.leftover(71, FORGED, 0, now, "0000000000000047.jobinfo"),
                StoredBlob.leftover(71, FORGED, 0, now, "0000000000000048.jobinfo"),
                StoredBlob.of(71, store.location(71), 0, now, true)));
        for (StoredBlob f : forged) {
            try {
                assertThat(store.deleteIncomplete(f)).as("%s", f).isFalse();
            } catch (IllegalArgumentException | JobInfoStoreException refused) {
                // refused: what a backend that cannot use the token does
            }
        }
        assertThat(completeBlobs()).extracting(StoredBlob::jobId).contains(71L, 72L);
        assertThat(store.read(71).payload()).isNotEmpty();
        assertThat(store.read(72).payload()).isNotEmpty();
    }

    @Test
    void listUntilVisitsWhatListReturnsInTheSameOrder() throws Exception {
        for (long id = 41; id <= 45; id++) {
            store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, 1, TestBlobs.randomPayload(id, 500))));
        }
        List<StoredBlob> visited = new java.util.ArrayList<>();
        store.listUntil(visited::add);
        List<StoredBlob> listed = store.list();
        assertThat(visited).extracting(StoredBlob::jobId, StoredBlob::sizeBytes, StoredBlob::location,
                        StoredBlob::incomplete)
                .containsExactlyElementsOf(listed.stream().map(b -> org.assertj.core.groups.Tuple.tuple(b.jobId(),
                        b.sizeBytes(), b.location(), b.incomplete())).toList());
        assertThat(visited.stream().filter(b -> !b.incomplete()).map(StoredBlob::jobId))
                .containsExactlyInAnyOrder(41L, 42L, 43L, 44L, 45L);
    }

    @Test
    void listUntilStopsAtTheVisitorsFirstFalse() throws Exception {
        for (long id = 51; id <= 55; id++) {
            store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, 1, TestBlobs.randomPayload(id, 500))));
        }
        List<StoredBlob> visited = new java.util.ArrayList<>();
        store.listUntil(b -> {
            visited.add(b);
            return visited.size() < 2;
        });
        assertThat(visited).hasSize(2);
        assertThat(visited.get(0)).isNotEqualTo(visited.get(1));
        assertThatThrownBy(() -> store.listUntil(b -> {
            throw new IllegalStateException("visitor failed on " + b.jobId());
        })).isInstanceOf(IllegalStateException.class).hasMessageStartingWith("visitor failed on ");
    }

    @Test
    void anEmptyNamespaceListsNothing() throws Exception {
        assertThat(store.list()).isEmpty();
    }

    // ---------------------------------------------------------------- sizes, ids, namespaces

    @Test
    void aLargeBlobIsStreamedBothWays() throws Exception {
        long size = largeBlobBytes();
        BlobSource payload = TestBlobs.pseudoRandomSource(99, size);
        BlobSource envelope = BlobEnvelope.wrap(64, 1, payload);
        assertThat(store.create(64, envelope)).isEqualTo(CreateOutcome.CREATED);

        MessageDigest expected = MessageDigest.getInstance("SHA-256");
        try (InputStream in = payload.open()) {
            in.transferTo(new DigestOutputStream(OutputStream.nullOutputStream(), expected));
        }
        MessageDigest actual = MessageDigest.getInstance("SHA-256");
        long read;
        try (InputStream raw = store.openRaw(64)) {
            read = BlobEnvelope.copyVerified(raw, new DigestOutputStream(OutputStream.nullOutputStream(), actual), 64)
                    .payloadLength();
        }
        assertThat(read).isEqualTo(size);
        assertThat(actual.digest()).isEqualTo(expected.digest());
        assertThat(completeBlobs()).singleElement().extracting(StoredBlob::sizeBytes)
                .isEqualTo(size + EnvelopeHeader.LENGTH);
    }

    @Test
    void extremeJobIdsAreDistinctBlobs() throws Exception {
        long[] ids = {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L};
        for (long id : ids) {
            store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, 1, TestBlobs.payloadNamed(id))));
        }
        for (long id : ids) {
            assertThat(store.read(id).payload()).isEqualTo(TestBlobs.payloadNamed(id));
        }
        assertThat(completeBlobs()).extracting(StoredBlob::jobId)
                .containsExactlyInAnyOrder(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L);
        assertThat(Arrays.stream(ids).mapToObj(store::location).distinct().count()).isEqualTo(ids.length);
    }

    @Test
    void aNamespaceWithSpacesAndNonAsciiCharactersWorks() throws Exception {
        try (JobInfoStore odd = open("job info ünïcødé 日本 " + UUID.randomUUID())) {
            byte[] payload = TestBlobs.randomPayload(13, 4000);
            odd.create(3, BlobSource.ofBytes(BlobEnvelope.wrap(3, 1, payload)));
            assertThat(odd.read(3).payload()).isEqualTo(payload);
            assertThat(odd.list()).extracting(StoredBlob::jobId).containsExactly(3L);
            assertThat(odd.delete(3)).isTrue();
            // stores in other namespaces are unaffected
            assertThatThrownBy(() -> store.read(3)).isInstanceOf(BlobNotFoundException.class);
        }
    }

    @Test
    void pathTraversalInTheNamespaceIsRejected() {
        for (String evil : List.of("../escape", "a/../../b", "./x", "a/..")) {
            assertThatThrownBy(() -> open(evil)).as(evil)
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("jobinfo-storage.namespace")
                    .hasMessageContaining("traversal");
        }
    }

    @Test
    void locationsStayInsideTheNamespace() {
        Location namespace = store.location(0).parent();
        assertThat(namespace.scheme()).isEqualTo(store.location(0).scheme());
        for (long id : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
            Location location = store.location(id);
            assertThat(location.parent()).as("%s", location).isEqualTo(namespace);
            assertThat(location.fileName()).isEqualTo(StoreNaming.blobName(id));
            assertThat(location).isEqualTo(namespace.resolve(StoreNaming.blobName(id)));
        }
    }

    /**
     * A job has one location: what {@link JobInfoStore#location(long)} says is what the listing and a read name, and
     * what a failure concerning the job carries; two jobs never share one.
     */
    @Test
    void aJobHasOneLocationEverywhereAndJobsHaveDistinctOnes() throws Exception {
        for (long id : new long[] {81, 82}) {
            store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, 1, TestBlobs.randomPayload(id, 300))));
        }
        Map<Long, Location> listed = new HashMap<>();
        for (StoredBlob b : completeBlobs()) {
            listed.put(b.jobId(), b.location());
        }
        for (long id : new long[] {81, 82}) {
            assertThat(listed.get(id)).as("listed location of job %d", id).isEqualTo(store.location(id));
            assertThat(store.read(id).location()).as("read location of job %d", id).isEqualTo(store.location(id));
            assertThat(store.location(id)).isEqualTo(store.location(id)).hasSameHashCodeAs(store.location(id));
        }
        assertThat(store.location(81)).isNotEqualTo(store.location(82));
        assertThat(store.location(81).toString()).isNotEqualTo(store.location(82).toString());
        assertThat(store.location(0)).isNotEqualTo(store.location(-1)).isNotEqualTo(store.location(Long.MIN_VALUE));
        assertThatThrownBy(() -> store.read(83)).isInstanceOfSatisfying(BlobNotFoundException.class,
                e -> assertThat(e.location()).isEqualTo(store.location(83)));
    }

    @Test
    void anUnknownPluginOptionIsRejectedWithTheKnownOnes() {
        JobInfoStorageConfig base = storeConfig("opts-" + UUID.randomUUID());
        JobInfoStorageConfig withTypo = JobInfoStorageConfig.builder(base.type()).namespace(base.namespace())
                .options(base.pluginConfig()).option("no.such.option", "1").build();
        assertThatThrownBy(() -> JobInfoStores.open(withTypo))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("no.such.option")
                .hasMessageContaining("known options");
    }

    @Test
    void theCallersConfigurationIsNotModified() throws Exception {
        JobInfoStorageConfig config = storeConfig("cfg-" + UUID.randomUUID());
        Map<String, String> before = Map.copyOf(config.pluginConfig());
        try (JobInfoStore s = JobInfoStores.open(config)) {
            assertThat(s.type()).isEqualTo(config.type());
            assertThat(s.storeId()).isNotBlank().hasSizeLessThanOrEqualTo(16);
        }
        assertThat(config.pluginConfig()).isEqualTo(before);
    }

    @Test
    void concurrentWritersOfDifferentJobsDoNotInterfere() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        AtomicInteger created = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                long id = 5000 + i;
                futures.add(pool.submit(() -> {
                    try {
                        store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, 1, TestBlobs.payloadNamed(id))));
                        created.incrementAndGet();
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(failure.get()).isNull();
        assertThat(created.get()).isEqualTo(64);
        assertThat(completeBlobs()).hasSize(64);
        for (int i = 0; i < 64; i++) {
            assertThat(store.read(5000 + i).payload()).isEqualTo(TestBlobs.payloadNamed(5000 + i));
        }
    }

    protected List<StoredBlob> completeBlobs() throws IOException {
        return store.list().stream().filter(b -> !b.incomplete()).toList();
    }

    /** Deterministic random bytes. */
    protected static byte[] randomBytes(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}
