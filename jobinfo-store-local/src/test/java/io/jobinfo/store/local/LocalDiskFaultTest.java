package io.jobinfo.store.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.spi.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.testing.TestBlobs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real disk faults under the local backend, as an operator meets them on a local disk or an NFS mount: no space left
 * (a 4 MiB tmpfs, ENOSPC for real), a file system remounted read-only, permission denied (root ignores permission
 * bits, so the store directory is made immutable with {@code chattr +i}) and the store directory removed under a
 * running store. For each: a create either succeeds or fails with a plain {@link JobInfoStoreException} (nothing
 * stored, never a hang, never a torn blob), every blob acknowledged before the fault reads back verified, and the
 * same store object works again once the fault is gone.
 *
 * <p>The mount-based tests need Linux and root and skip (JUnit assumption, with the reason) otherwise; the tmpfs is
 * unmounted after each test, also when it fails. Not covered yet: a slow disk. The build machines have neither
 * device-mapper ({@code dm-delay}) nor cgroup I/O throttling; {@code /dev/fuse} exists, so a FUSE passthrough file
 * system that delays writes and fsyncs (with a libfuse binding that CI installs) is the way to make one.
 */
class LocalDiskFaultTest {

    /** A bound on every single store call: generous (a loaded build machine), only there to catch a hang. */
    private static final Duration NO_HANG = Duration.ofSeconds(120);

    @TempDir
    Path temp;

    private Path mount;
    private LocalJobInfoStore store;
    private final Map<Long, byte[]> acknowledged = new LinkedHashMap<>();

    @AfterEach
    void cleanUp() {
        if (store != null) {
            store.close();
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
            byte[] expected = BlobEnvelope.verify(e.getValue(), e.getKey(), "expected").payload();
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

    private static <T> T bounded(ThrowingSupplier<T> call) {
        return assertTimeoutPreemptively(NO_HANG, call);
    }
}
