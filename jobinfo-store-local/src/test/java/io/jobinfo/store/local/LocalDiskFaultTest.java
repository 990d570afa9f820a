package io.jobinfo.store.local;

import static io.jobinfo.store.local.SlowDisk.bounded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real disk faults under the local backend, as an operator meets them on a local disk or an NFS mount: no space left
 * (a 4 MiB tmpfs, ENOSPC for real), a file system remounted read-only, permission denied (root ignores permission
 * bits, so the store directory is made immutable with {@code chattr +i}) and the store directory removed under a
 * running store. For each: a create either succeeds or fails with a plain {@link JobInfoStoreException} (nothing
 * stored, never a hang, never a torn blob), every blob acknowledged before the fault reads back verified, and the
 * same store object works again once the fault is gone.
 *
 * <p><b>A slow disk.</b> The build machines have neither device-mapper ({@code dm-delay}) nor cgroup I/O throttling,
 * so the slow disk is a FUSE passthrough file system ({@link SlowDisk}: {@link DelayingFuseFs} on jnr-fuse and
 * libfuse 2, served by a child JVM) that delays every write and fsync, or stalls every fsync until released. What it
 * shows: on a slow disk creates are slow and succeed, and every acknowledged blob reads back verified and is on the
 * backing disk byte for byte. On a stalled disk a create on a store with a write timeout fails once it has passed,
 * with nothing stored; without one it BLOCKS as long as the disk does ({@link LocalSlowDiskRegistryTest} shows both
 * for a registry's submit, seatunnel-it's DropInSlowDiskTest what the drop-in does), while reads work,
 * the write in flight is listed as incomplete and nothing is acknowledged; once the disk answers the same create
 * returns CREATED, intact. Interrupting the blocked thread blocks the interrupter too, until the disk answers; then
 * the create fails plainly. If the disk's server dies under a stalled create, the create fails at once (nothing
 * stored) and leaves its temporary file, which the same store lists as incomplete and removes once the disk is back.
 *
 * <p>The mount-based tests need Linux and root (the slow disk also {@code /dev/fuse} and libfuse 2) and skip (JUnit
 * assumption, with the reason) otherwise; the tmpfs is unmounted after each test, also when it fails. The slow-disk
 * tests share one FUSE mount (a directory each), reset after each test (stalled fsyncs released, so no thread stays
 * blocked on it) and unmounted after the class (the test that kills the disk's server starts it again; if it fails
 * before that, the next test mounts a new one).
 */
class LocalDiskFaultTest {

    /** A bound on every single store call: generous (a loaded build machine), only there to catch a hang. */
    private static final Duration NO_HANG = Duration.ofSeconds(120);

    @TempDir
    Path temp;

    private Path mount;
    private SlowDisk disk;
    private LocalJobInfoStore store;
    private final Map<Long, byte[]> acknowledged = new LinkedHashMap<>();

    /** The slow disk the tests share (one mount, one child JVM: about a second each saved); per test a directory. */
    private static SlowDisk shared;
    private static int sharedUses;

    @TempDir
    static Path classTemp;

    @AfterAll
    static void unmountShared() {
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }

    @AfterEach
    void cleanUp() {
        if (store != null) {
            store.close();
        }
        if (disk != null && disk == shared) {
            try {
                disk.reset(); // releases stalled fsyncs first, so no thread of this JVM stays blocked on the mount
            } catch (RuntimeException e) {
                unmountShared();
            }
        } else if (disk != null) {
            disk.close(); // releases stalled fsyncs first, so no thread of this JVM stays blocked on the mount
        }
        if (mount != null && Privileged.isMountPoint(mount)) {
            Privileged.unmountQuietly(mount);
        }
    }

    private Path tmpfs(int sizeMiB) throws IOException {
        Path dir = Files.createDirectories(temp.resolve("mnt"));
        Privileged.mountTmpfs(dir, sizeMiB);
        mount = dir;
        return dir;
    }

    private void openStore(Path dir) throws JobInfoStoreException {
        store = LocalJobInfoStore.open(dir, null, true, true);
    }

    private void acknowledge(long jobId, int size) throws Exception {
        byte[] envelope = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(jobId, size));
        assertThat(bounded(() -> store.create(jobId, BlobSource.ofBytes(envelope)))).isEqualTo(CreateOutcome.CREATED);
        acknowledged.put(jobId, envelope);
    }

    private void assertAcknowledgedIntact() throws Exception {
        for (Map.Entry<Long, byte[]> e : acknowledged.entrySet()) {
            byte[] expected = BlobEnvelope.verify(e.getValue(), e.getKey(), store.location(e.getKey())).payload();
            assertThat(bounded(() -> store.read(e.getKey())).payload())
                    .as("acknowledged job %s", e.getKey()).isEqualTo(expected);
        }
    }

    /** A create that must fail cleanly: a plain store exception naming the job, nothing stored, no leftover. */
    private JobInfoStoreException assertCreateFailsCleanly(long jobId, int size, String expectedCause)
            throws Exception {
        byte[] envelope = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(jobId, size));
        JobInfoStoreException failure = bounded(() -> {
            try {
                store.create(jobId, BlobSource.ofBytes(envelope));
                return null;
            } catch (JobInfoStoreException e) {
                return e;
            }
        });
        assertThat(failure).as("create of job %s under the fault", jobId).isNotNull();
        assertThat(failure).isNotInstanceOf(OutcomeUnknownException.class);
        assertThat(failure.getMessage()).contains("jobId=" + jobId).contains("nothing was stored")
                .contains(expectedCause);
        return failure;
    }

    private void assertNoTornBlobAndNoLeftover() throws Exception {
        for (StoredBlob b : bounded(() -> store.list())) {
            assertThat(b.incomplete()).as("leftover %s", b.location()).isFalse();
            assertThat(acknowledged).as("listed blob %s", b.location()).containsKey(b.jobId());
            assertThat(bounded(() -> store.read(b.jobId()))).isNotNull();
        }
    }

    @Test
    void noSpaceLeftFailsTheCreateAndTheStoreRecoversOnceSpaceIsFreed() throws Exception {
        Path dir = tmpfs(4);
        openStore(dir.resolve("store"));
        acknowledge(1, 200 << 10);
        acknowledge(2, 200 << 10);
        Path filler = dir.resolve("filler");
        fillUntilFull(filler);

        assertCreateFailsCleanly(3, 1 << 20, "No space left on device");
        assertThatThrownBy(() -> store.read(3)).isInstanceOf(BlobNotFoundException.class);
        assertNoTornBlobAndNoLeftover();
        assertAcknowledgedIntact();

        Files.delete(filler); // the fault goes away
        acknowledge(3, 1 << 20);
        assertAcknowledgedIntact();
        assertNoTornBlobAndNoLeftover();
    }

    @Test
    void aReadOnlyRemountFailsCreatesAndDeletesKeepsEveryBlobAndRecoversOnRemountReadWrite() throws Exception {
        Path dir = tmpfs(8);
        openStore(dir.resolve("store"));
        acknowledge(10, 300 << 10);
        acknowledge(11, 300 << 10);

        Privileged.remount(dir, true);
        assertCreateFailsCleanly(12, 300 << 10, "Read-only file system");
        assertThatThrownBy(() -> bounded(() -> store.delete(10)))
                .isInstanceOf(JobInfoStoreException.class).hasMessageContaining("jobId=10")
                .hasMessageContaining("retry later");
        assertAcknowledgedIntact();
        assertNoTornBlobAndNoLeftover();
        // a member starting now is told at once
        assertThatThrownBy(() -> LocalJobInfoStore.open(dir.resolve("store"), null, true, true))
                .isInstanceOf(JobInfoStoreException.class).hasMessageContaining("not writable")
                .hasMessageContaining("Read-only file system");

        Privileged.remount(dir, false);
        acknowledge(12, 300 << 10);
        assertThat(bounded(() -> store.delete(10))).isTrue();
        acknowledged.remove(10L);
        assertAcknowledgedIntact();
        assertNoTornBlobAndNoLeftover();
    }

    @Test
    void permissionDeniedOnTheDirectoryFailsCreatesAndRecoversOnceLifted() throws Exception {
        Path dir = tmpfs(8);
        Path storeDir = dir.resolve("store");
        openStore(storeDir);
        acknowledge(20, 300 << 10);

        Privileged.immutable(storeDir, true);
        try {
            assertCreateFailsCleanly(21, 300 << 10, "Operation not permitted");
            assertThatThrownBy(() -> bounded(() -> store.delete(20)))
                    .isInstanceOf(JobInfoStoreException.class).hasMessageContaining("jobId=20");
            assertAcknowledgedIntact();
            assertNoTornBlobAndNoLeftover();
        } finally {
            Privileged.immutable(storeDir, false);
        }
        acknowledge(21, 300 << 10);
        assertAcknowledgedIntact();
        assertNoTornBlobAndNoLeftover();
    }

    /** Needs no privilege: the directory is moved away (an export unmounted, a volume detached) and back. */
    @Test
    void aDirectoryRemovedUnderTheStoreFailsCreatesClearlyAndTheStoreRecoversWhenItIsBack() throws Exception {
        Path storeDir = temp.resolve("store");
        openStore(storeDir);
        acknowledge(30, 100 << 10);
        acknowledge(31, 100 << 10);

        Path away = temp.resolve("moved-away");
        Files.move(storeDir, away);
        JobInfoStoreException failure = assertCreateFailsCleanly(32, 100 << 10, "no longer exists");
        assertThat(failure.getMessage()).contains(storeDir.toString());
        assertThatThrownBy(() -> store.read(30)).isInstanceOf(BlobNotFoundException.class);
        // a listing must not look like an empty store (GC would then see no blobs rather than fail)
        assertThatThrownBy(() -> store.list()).isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("no longer exists");
        assertThat(Files.exists(storeDir)).as("the store must not re-create a vanished directory by itself").isFalse();

        Files.move(away, storeDir);
        assertAcknowledgedIntact();
        acknowledge(32, 100 << 10);
        assertNoTornBlobAndNoLeftover();
    }

    // ---- a slow disk: a FUSE passthrough file system that delays writes and fsyncs, or stalls fsyncs (SlowDisk) ----

    /** A directory of this test on the shared slow disk (mounted by the first test that asks). */
    private Path slowDisk() throws IOException {
        if (shared == null || !shared.alive()) {
            unmountShared();
            shared = SlowDisk.mount(classTemp.resolve("backing"), classTemp.resolve("fuse"));
        }
        disk = shared;
        return Files.createDirectories(shared.mountPoint().resolve("test-" + (++sharedUses)));
    }

    /** What is really on the disk under the mount: the blob files of the backing directory, byte for byte. */
    private void assertAcknowledgedOnTheBackingDisk() throws IOException {
        Path storeOnDisk = disk.backing().resolve(disk.mountPoint().relativize(store.directory()));
        for (Map.Entry<Long, byte[]> e : acknowledged.entrySet()) {
            Path onDisk = storeOnDisk.resolve(StoreNaming.blobName(e.getKey()));
            assertThat(Files.readAllBytes(onDisk)).as("job %s on the backing disk", e.getKey())
                    .isEqualTo(e.getValue());
        }
    }

    private static Thread startCreate(LocalJobInfoStore store, long jobId, int size,
                                      AtomicReference<Object> outcome) {
        byte[] envelope = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(jobId, size));
        Thread t = new Thread(() -> {
            try {
                outcome.set(store.create(jobId, BlobSource.ofBytes(envelope)));
            } catch (JobInfoStoreException | RuntimeException e) {
                outcome.set(e);
            }
        }, "create-" + jobId);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits (bounded: a hang fails the test) for the thread of {@link #startCreate} and returns what it got. */
    private static Object outcomeOf(Thread t, AtomicReference<Object> outcome) throws InterruptedException {
        t.join(NO_HANG.toMillis());
        assertThat(t.isAlive()).as("%s still blocked after %s", t.getName(), NO_HANG).isFalse();
        return outcome.get();
    }

    /**
     * Every write request and every fsync of the disk is delayed (100 ms each; a blob of 200 KiB is two write
     * requests, a create makes two fsyncs: the file and the directory). Creates are slow and succeed; the disk saw
     * the delays; every acknowledged blob reads back verified and is on the backing disk byte for byte; once the
     * delay is gone the same store goes on.
     */
    @Test
    void aSlowDiskSlowsCreatesDownAndLosesNothingAcknowledged() throws Exception {
        Path dir = slowDisk();
        disk.delay(Duration.ofMillis(100), Duration.ofMillis(100));
        openStore(dir.resolve("store"));
        acknowledge(40, 1 << 10);
        acknowledge(41, 200 << 10);
        byte[] again = acknowledged.get(41L);
        assertThat(bounded(() -> store.create(41, BlobSource.ofBytes(again)))).isEqualTo(CreateOutcome.ALREADY_PRESENT);

        Map<String, Long> counts = disk.counts();
        assertThat(counts.get("fsyncs")).as("the store's fsyncs went to the slow disk: %s", counts)
                .isGreaterThanOrEqualTo(2L * acknowledged.size());
        assertThat(counts.get("delayedMillis")).as("%s", counts).isGreaterThanOrEqualTo(
                100L * (counts.get("writes") + counts.get("fsyncs")));
        assertAcknowledgedIntact();
        assertAcknowledgedOnTheBackingDisk();
        assertNoTornBlobAndNoLeftover();

        disk.delay(Duration.ZERO, Duration.ZERO);
        acknowledge(43, 100 << 10);
        assertAcknowledgedIntact();
        assertAcknowledgedOnTheBackingDisk();
        assertNoTornBlobAndNoLeftover();
    }

    /**
     * A disk that stops answering fsyncs, under a store without a write timeout. What the caller gets: the create BLOCKS
     * inside the store (the fsync of the temporary file is where it waits, as the disk tells); it is not
     * acknowledged meanwhile, the blob is not readable under its name, the store's listing shows the write in flight
     * as incomplete, and blobs acknowledged before read back verified (reads need no fsync). Once the disk answers
     * again the same create returns CREATED and its blob is intact; nothing is left over.
     */
    @Test
    void aStalledDiskBlocksTheCreateUntilItAnswersAndThenTheBlobIsIntact() throws Exception {
        Path dir = slowDisk();
        openStore(dir.resolve("store"));
        acknowledge(50, 100 << 10);

        disk.stall();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread create = startCreate(store, 51, 200 << 10, outcome);
        String waiting = disk.awaitStalledFsync(NO_HANG);
        assertThat(StoreNaming.parseTempName(Paths.get(waiting).getFileName().toString()))
                .as("the fsync that waits: %s", waiting).hasValue(51L);
        assertThat(create.isAlive()).as("the create waits for the disk").isTrue();
        assertThat(outcome.get()).isNull();

        assertThatThrownBy(() -> bounded(() -> store.read(51))).isInstanceOf(BlobNotFoundException.class);
        assertAcknowledgedIntact();
        assertThat(bounded(() -> store.list())).filteredOn(StoredBlob::incomplete)
                .extracting(StoredBlob::jobId).containsExactly(51L);

        disk.release();
        assertThat(outcomeOf(create, outcome)).isEqualTo(CreateOutcome.CREATED);
        acknowledged.put(51L, BlobEnvelope.wrap(51, 1, TestBlobs.randomPayload(51, 200 << 10)));
        assertAcknowledgedIntact();
        assertAcknowledgedOnTheBackingDisk();
        assertNoTornBlobAndNoLeftover();
    }

    /**
     * The same stalled disk under a store with a write timeout ({@code local.write-timeout}, what the factory sets by
     * default): the create fails once the timeout has passed, with a plain error naming the job, the setting and what
     * to do (not an unknown outcome: the write was abandoned before its commit point), and nothing is readable. The
     * abandoned write goes on on its own thread; once the disk answers it does not link the blob and removes its
     * temporary file, so nothing is stored or left over; the same store then creates the job.
     */
    @Test
    void withAWriteTimeoutACreateOnAStalledDiskFailsInTimeWithNothingStoredAndTheStoreGoesOn() throws Exception {
        Path dir = slowDisk();
        store = LocalJobInfoStore.open(dir.resolve("store"), null, true, true, 1_000);
        acknowledge(55, 100 << 10);

        disk.stall();
        byte[] envelope = BlobEnvelope.wrap(56, 1, TestBlobs.randomPayload(56, 200 << 10));
        assertThatThrownBy(() -> bounded(() -> store.create(56, BlobSource.ofBytes(envelope))))
                .isInstanceOf(JobInfoStoreException.class).isNotInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("jobId=56").hasMessageContaining("did not answer within 1000 ms")
                .hasMessageContaining(LocalJobInfoStoreFactory.WRITE_TIMEOUT).hasMessageContaining("nothing was stored");
        assertThat(disk.awaitStalledFsync(NO_HANG)).as("the abandoned write still waits on the disk").isNotNull();
        assertThatThrownBy(() -> bounded(() -> store.read(56))).isInstanceOf(BlobNotFoundException.class);
        assertAcknowledgedIntact();

        disk.release();
        long deadline = System.nanoTime() + NO_HANG.toNanos();
        while (!bounded(() -> store.list()).stream().noneMatch(b -> b.jobId() == 56)
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(bounded(() -> store.list())).as("the abandoned write linked nothing and removed its temporary file")
                .noneMatch(b -> b.jobId() == 56);
        acknowledge(56, 200 << 10);
        assertAcknowledgedIntact();
        assertAcknowledgedOnTheBackingDisk();
        assertNoTornBlobAndNoLeftover();
    }

    /**
     * A create blocked on a stalled fsync cannot be called off, and trying blocks the caller too: {@code
     * Thread.interrupt()} of a thread inside {@code FileChannel.force} closes the channel and then WAITS for that
     * thread to leave the native call (JDK 17 {@code NativeThreadSet.signalAndWait}), which it does only when the disk
     * answers (the kernel keeps waiting for the FUSE server, as for a hard NFS mount). So {@code Future.cancel(true)},
     * {@code shutdownNow()} or a preemptive timeout on such a thread hangs as well. When the disk answers, the
     * interrupter returns and the interrupted create fails plainly (nothing stored, the temporary file removed, not an
     * unknown outcome); the store goes on.
     */
    @Test
    void anInterruptBlocksOnACreateStalledOnTheDiskAndTheCreateFailsCleanlyOnceTheDiskAnswers() throws Exception {
        Path dir = slowDisk();
        openStore(dir.resolve("store"));
        acknowledge(60, 100 << 10);

        disk.stall();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread create = startCreate(store, 61, 100 << 10, outcome);
        disk.awaitStalledFsync(NO_HANG);
        Thread interrupter = new Thread(create::interrupt, "interrupter");
        interrupter.setDaemon(true);
        interrupter.start();
        // not a timing assertion: half a second in which an interrupt that frees the thread would have done so
        interrupter.join(500);
        assertThat(interrupter.isAlive()).as("Thread.interrupt() waits for the thread blocked on the disk").isTrue();
        assertThat(create.isAlive()).as("the interrupted create is still blocked on the disk").isTrue();

        disk.release();
        interrupter.join(NO_HANG.toMillis());
        assertThat(interrupter.isAlive()).as("the interrupter returns once the disk answers").isFalse();
        Object failure = outcomeOf(create, outcome);
        assertThat(failure).isInstanceOf(JobInfoStoreException.class).isNotInstanceOf(OutcomeUnknownException.class);
        assertThat(((JobInfoStoreException) failure).getMessage()).contains("jobId=61").contains("nothing was stored")
                .contains("ClosedByInterruptException");
        assertThatThrownBy(() -> bounded(() -> store.read(61))).isInstanceOf(BlobNotFoundException.class);
        assertNoTornBlobAndNoLeftover();
        acknowledge(61, 100 << 10);
        assertAcknowledgedIntact();
        assertNoTornBlobAndNoLeftover();
    }

    /**
     * The disk's server dies while a create waits on a stalled fsync (a FUSE or NFS server lost): the create fails at
     * once with a plain error (nothing stored), the blocked thread is freed, reads fail with a store error (not "not
     * found"), and the temporary file of the interrupted write stays on the disk, since it could not be removed. When
     * the server is back (over the same disk), the same store object lists that file as incomplete, removes it as GC
     * does ({@code deleteIncomplete}), reads every acknowledged blob verified and creates again.
     */
    @Test
    void theDiskServerDyingUnderAStalledCreateFailsItAndLeavesALeftoverThatTheStoreFindsOnceBack() throws Exception {
        Path dir = slowDisk();
        openStore(dir.resolve("store"));
        acknowledge(70, 100 << 10);
        acknowledge(71, 100 << 10);

        disk.stall();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread create = startCreate(store, 72, 300 << 10, outcome);
        disk.awaitStalledFsync(NO_HANG);
        disk.crash();
        Object failure = outcomeOf(create, outcome);
        assertThat(failure).isInstanceOf(JobInfoStoreException.class).isNotInstanceOf(OutcomeUnknownException.class);
        assertThat(((JobInfoStoreException) failure).getMessage()).contains("jobId=72").contains("nothing was stored");
        assertThatThrownBy(() -> bounded(() -> store.read(70))).isInstanceOf(JobInfoStoreException.class)
                .isNotInstanceOf(BlobNotFoundException.class).hasMessageContaining("jobId=70");
        assertThatThrownBy(() -> bounded(() -> store.list())).isInstanceOf(JobInfoStoreException.class);

        disk.restart();
        List<StoredBlob> leftovers = bounded(() -> store.list()).stream().filter(StoredBlob::incomplete).toList();
        assertThat(leftovers).extracting(StoredBlob::jobId).containsExactly(72L);
        assertThat(bounded(() -> store.deleteIncomplete(leftovers.get(0)))).isTrue();
        assertThatThrownBy(() -> bounded(() -> store.read(72))).isInstanceOf(BlobNotFoundException.class);
        assertAcknowledgedIntact();
        assertAcknowledgedOnTheBackingDisk();
        assertNoTornBlobAndNoLeftover();
        acknowledge(72, 300 << 10);
        assertAcknowledgedIntact();
        assertNoTornBlobAndNoLeftover();
    }

    private static void fillUntilFull(Path filler) {
        byte[] chunk = new byte[64 << 10];
        try (OutputStream out = Files.newOutputStream(filler)) {
            for (int i = 0; i < 1024; i++) { // at most 64 MiB, far more than the tmpfs holds
                out.write(chunk);
            }
        } catch (IOException expected) {
            assertThat(expected.getMessage()).contains("No space left on device");
            return;
        }
        throw new AssertionError("the tmpfs never filled up");
    }
}
