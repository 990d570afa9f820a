package io.jobinfo.store.local;

import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.spi.AbstractJobInfoStore;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.spi.StoredBlob;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Blobs as files in one directory of a local disk or an NFS mount.
 *
 * <p>Write-once and atomic: the bytes go to a temporary file in the target directory, which is fsynced and then
 * hard-linked to the final name ({@code link(2)} fails if the name exists, on NFS too), the directory is fsynced, and
 * the temporary name is removed. Readers never see a partial file: the final name appears only once complete. A crash
 * mid-write leaves a {@code .tmp-*} file that {@link #list()} reports as incomplete for garbage collection.
 *
 * <p>The file system must support hard links; {@link #open} checks that and refuses to start otherwise.
 *
 * <p>With a write timeout ({@code local.write-timeout}, 30 s by default through the factory), a create on a disk that
 * stops answering fails after that time with nothing stored, instead of waiting as long as the disk does; see
 * {@link WriteDeadline}. Reads, lists and deletes wait as long as the disk does.
 */
public final class LocalJobInfoStore extends AbstractJobInfoStore {

    private final Path dir;
    private final boolean fsync;
    /** {@code null}: a create waits as long as the disk does. */
    private final WriteDeadline deadline;

    private LocalJobInfoStore(Path dir, String storeId, boolean fsync, long writeTimeoutMillis) {
        super(storeId);
        this.dir = dir;
        this.fsync = fsync;
        this.deadline = writeTimeoutMillis > 0 ? new WriteDeadline(writeTimeoutMillis, dir.toString()) : null;
    }

    /**
     * Opens a store on {@code dir} whose creates wait as long as the disk takes; see
     * {@link #open(Path, String, boolean, boolean, long)}.
     *
     * @throws JobInfoStoreException naming the directory and what is wrong with it
     */
    public static LocalJobInfoStore open(Path dir, String storeId, boolean fsync, boolean createDirectories)
            throws JobInfoStoreException {
        return open(dir, storeId, fsync, createDirectories, 0);
    }

    /**
     * Opens a store on {@code dir}, checking that it is a writable directory that supports hard links.
     *
     * @param writeTimeoutMillis how long a create waits for the disk at most (0: as long as the disk takes); past it
     *                           the create fails with nothing stored, see {@link WriteDeadline}
     * @throws JobInfoStoreException naming the directory and what is wrong with it
     */
    public static LocalJobInfoStore open(Path dir, String storeId, boolean fsync, boolean createDirectories,
                                         long writeTimeoutMillis) throws JobInfoStoreException {
        Path absolute = dir.toAbsolutePath().normalize();
        try {
            if (createDirectories) {
                Files.createDirectories(absolute);
            }
        } catch (IOException e) {
            throw new JobInfoStoreException("Cannot create the store directory: " + e + "; create it or fix its"
                    + " permissions", null, uri(absolute), e);
        }
        if (!Files.isDirectory(absolute)) {
            throw new JobInfoStoreException("The store directory does not exist; create it or set "
                    + LocalJobInfoStoreFactory.CREATE_DIRECTORIES + "=true", null, uri(absolute));
        }
        probeHardLinks(absolute);
        String id = storeId != null ? storeId : StoreNaming.deriveStoreId("local:" + absolute);
        return new LocalJobInfoStore(absolute, id, fsync, writeTimeoutMillis);
    }

    private static void probeHardLinks(Path dir) throws JobInfoStoreException {
        Path probe = dir.resolve(".probe-" + UUID.randomUUID());
        Path link = dir.resolve(".probe-" + UUID.randomUUID());
        try {
            Files.write(probe, new byte[] {1}, StandardOpenOption.CREATE_NEW);
            Files.createLink(link, probe);
        } catch (UnsupportedOperationException e) {
            throw new JobInfoStoreException("The file system of the store directory does not support hard links,"
                    + " which write-once creation needs; use a POSIX file system or NFS", null, uri(dir));
        } catch (IOException e) {
            throw new JobInfoStoreException("The store directory is not writable (" + e + "); fix its permissions",
                    null, uri(dir), e);
        } finally {
            try {
                Files.deleteIfExists(link);
                Files.deleteIfExists(probe);
            } catch (IOException ignored) {
                // best effort: a leftover probe is harmless and not listed as a blob
            }
        }
    }

    /** The directory holding the blobs. */
    public Path directory() {
        return dir;
    }

    /** The file of {@code jobId}'s blob. */
    public Path path(long jobId) {
        return dir.resolve(StoreNaming.blobName(jobId));
    }

    @Override
    public String type() {
        return "local";
    }

    @Override
    public Location location(long jobId) {
        return uri(path(jobId));
    }

    /** The location of a file or directory: its URI, as {@link Path#toUri()} gives it. */
    private static Location uri(Path p) {
        return Location.of(p.toUri().toString());
    }

    @Override
    protected boolean writeIfAbsent(long jobId, BlobSource blob, EnvelopeHeader header) throws JobInfoStoreException {
        checkOpen();
        if (deadline == null) {
            return writeNow(jobId, blob, null);
        }
        return deadline.run(jobId, location(jobId), ticket -> writeNow(jobId, blob, ticket));
    }

    /** The write itself; {@code ticket} (if any) says at the commit point whether its caller still waits. */
    private boolean writeNow(long jobId, BlobSource blob, WriteDeadline.Ticket ticket) throws JobInfoStoreException {
        Path target = path(jobId);
        if (Files.exists(target)) {
            return false; // cheap path for retries; the link below is what decides a race
        }
        Path temp = dir.resolve(StoreNaming.tempName(jobId, UUID.randomUUID().toString()));
        try {
            writeTemp(temp, blob, jobId);
        } catch (JobInfoStoreException e) {
            deleteQuietly(temp);
            throw e;
        } catch (IOException e) {
            deleteQuietly(temp);
            if (!Files.isDirectory(dir)) {
                throw new JobInfoStoreException(directoryGone() + "; nothing was stored (" + e + ")", jobId,
                        location(jobId), e);
            }
            throw new JobInfoStoreException("Writing the blob failed (nothing was stored): " + e, jobId,
                    location(jobId), e);
        }
        if (ticket != null && !ticket.mayCommit()) {
            deleteQuietly(temp);
            throw new JobInfoStoreException("Abandoned: the caller stopped waiting for the disk; nothing was stored",
                    jobId, location(jobId));
        }
        try {
            Files.createLink(target, temp);
        } catch (FileAlreadyExistsException e) {
            deleteQuietly(temp);
            return false;
        } catch (IOException e) {
            // link(2) either happened or not; on NFS a lost reply leaves that open.
            boolean linked = Files.exists(target);
            deleteQuietly(temp);
            if (linked) {
                throw new OutcomeUnknownException("linking the blob into place reported " + e, jobId,
                        location(jobId), e);
            }
            throw new JobInfoStoreException("Linking the blob into place failed (nothing was stored): " + e, jobId,
                    location(jobId), e);
        }
        try {
            fsyncDirectory();
        } catch (IOException e) {
            deleteQuietly(temp);
            throw new OutcomeUnknownException("the blob is in place but the directory could not be synced (" + e
                    + "); it may not survive a power loss", jobId, location(jobId), e);
        }
        deleteQuietly(temp);
        return true;
    }

    private void writeTemp(Path temp, BlobSource blob, long jobId) throws IOException, JobInfoStoreException {
        long written = 0;
        ByteBuffer inMemory = blob.asByteBuffer();
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            if (inMemory != null) {
                // straight from the caller's buffer: no stream, no 256 KiB copy buffer per blob
                while (inMemory.hasRemaining()) {
                    written += ch.write(inMemory);
                }
            } else {
                try (InputStream in = blob.open()) {
                    byte[] buf = new byte[256 * 1024];
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        ByteBuffer bb = ByteBuffer.wrap(buf, 0, n);
                        while (bb.hasRemaining()) {
                            ch.write(bb);
                        }
                        written += n;
                    }
                }
            }
            if (written != blob.length()) {
                throw new CorruptBlobException("the blob source yielded " + written + " bytes but declared "
                        + blob.length() + "; nothing was stored", jobId, location(jobId));
            }
            if (fsync) {
                ch.force(true);
            }
        }
    }

    private void fsyncDirectory() throws IOException {
        if (!fsync) {
            return;
        }
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a directory for reading; Linux (and NFS clients on it) can.
            if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
                return;
            }
            throw e;
        }
    }

    @Override
    public InputStream openRaw(long jobId) throws JobInfoStoreException {
        checkOpen();
        try {
            return Files.newInputStream(path(jobId));
        } catch (NoSuchFileException e) {
            throw new BlobNotFoundException(jobId, location(jobId));
        } catch (IOException e) {
            throw new JobInfoStoreException("Opening the blob failed: " + e, jobId, location(jobId), e);
        }
    }

    @Override
    public boolean delete(long jobId) throws JobInfoStoreException {
        checkOpen();
        try {
            boolean deleted = Files.deleteIfExists(path(jobId));
            if (deleted) {
                fsyncDirectory();
            }
            return deleted;
        } catch (IOException e) {
            throw new JobInfoStoreException("Deleting the blob failed; retry later: " + e, jobId, location(jobId), e);
        }
    }

    /** Reads the directory one entry at a time and stops reading it (and stat-ing its files) at the first false. */
    @Override
    public void listUntil(Predicate<? super StoredBlob> visitor) throws JobInfoStoreException {
        checkOpen();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                OptionalLong blobId = StoreNaming.parseBlobName(name);
                OptionalLong tempId = blobId.isPresent() ? OptionalLong.empty() : StoreNaming.parseTempName(name);
                if (!blobId.isPresent() && !tempId.isPresent()) {
                    continue;
                }
                BasicFileAttributes attrs;
                try {
                    attrs = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (NoSuchFileException gone) {
                    continue; // deleted while listing
                }
                if (!attrs.isRegularFile()) {
                    continue;
                }
                long id = blobId.isPresent() ? blobId.getAsLong() : tempId.getAsLong();
                Location location = uri(p);
                Instant modified = attrs.lastModifiedTime().toInstant();
                if (!visitor.test(blobId.isPresent() ? StoredBlob.of(id, location, attrs.size(), modified, false)
                        : StoredBlob.leftover(id, location, attrs.size(), modified, p.getFileName().toString()))) {
                    return;
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            IOException cause = e instanceof DirectoryIteratorException ? ((DirectoryIteratorException) e).getCause()
                    : (IOException) e;
            if (!Files.isDirectory(dir)) {
                throw new JobInfoStoreException(directoryGone() + " (" + cause + ")", null, uri(dir),
                        cause);
            }
            throw new JobInfoStoreException("Listing the store directory failed: " + cause, null,
                    uri(dir), cause);
        }
    }

    @Override
    protected boolean deleteLeftover(StoredBlob leftover) throws JobInfoStoreException {
        checkOpen();
        // the token is the temporary file's name in this directory, checked again: the entry may come from anywhere
        if (!StoreNaming.isTempNameOf(leftover.leftoverToken(), leftover.jobId())) {
            throw new IllegalArgumentException("Not a leftover of this store: " + leftover.location());
        }
        Path p = dir.resolve(leftover.leftoverToken());
        try {
            return Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new JobInfoStoreException("Deleting the leftover failed: " + e, leftover.jobId(),
                    leftover.location(), e);
        }
    }

    @Override
    public void close() {
        if (markClosed(uri(dir)) && deadline != null) {
            deadline.close();
        }
    }

    private String directoryGone() {
        return "The store directory " + dir + " no longer exists (removed, or its file system unmounted, under the"
                + " running store); re-mount or restore it. The store does not re-create it by itself, since an empty"
                + " new directory would hide every stored blob";
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover temp file is listed as incomplete and removed by GC
        }
    }

    @Override
    public String toString() {
        return "LocalJobInfoStore{" + dir + ", storeId=" + storeId() + '}';
    }
}
