package io.jobinfo.store.hdfs;

import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoreNaming;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.function.LongFunction;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of {@link HdfsJobInfoStore}: a blob written once and atomically to its final name in the namespace
 * directory, by the {@link Commit} of the store's file system (a temporary file renamed or linked into place, or an
 * S3A conditional create), and the probe that proves at open that this works. Runs in the caller's
 * {@code doAs}; the store's class javadoc states what each failure means.
 *
 * <p>Failure: {@link #write} returns {@code false} if a blob already has the final name; throws
 * {@link OutcomeUnknownException} when the rename or the upload failed in a way that may have taken effect, a
 * {@link JobInfoStoreException} (or {@link CorruptBlobException}) when nothing was stored, and otherwise the file
 * system's {@link IOException}, which the store words. A temporary file is removed, except after an interrupt (no
 * more I/O then; the store's listing reports it as incomplete).
 */
final class HdfsBlobWriter {

    private static final Logger LOG = LoggerFactory.getLogger(HdfsBlobWriter.class);
    private static final int COPY_BUFFER = 256 * 1024;
    private static final String S3A_CONFLICT = "org.apache.hadoop.fs.s3a.RemoteFileChangedException";
    private static final String COND_CREATE = "fs.option.create.conditional.overwrite";

    /** How a complete temporary file becomes the final, write-once name. */
    enum Commit {
        /** HDFS rename2 with {@code Options.Rename.NONE}: atomic on the NameNode, fails if the target exists. */
        HDFS_RENAME,
        /** {@code link(2)} on the local file system: atomic, fails if the target exists. */
        LOCAL_LINK,
        /** S3A conditional create of the final object, no temporary object at all. */
        CONDITIONAL_CREATE,
        /** {@code FileSystem.rename}, which must return false if the target exists (HDFS semantics; viewfs). */
        RENAME
    }

    private final FileSystem ops;
    private final Path dir;
    private final Commit commit;
    private final LongFunction<Path> paths;
    private final LongFunction<Location> locations;

    /**
     * @param paths     the final file of a job's blob
     * @param locations a job's blob location, as failures name it
     */
    HdfsBlobWriter(FileSystem ops, Path dir, Commit commit, LongFunction<Path> paths,
                   LongFunction<Location> locations) {
        this.ops = ops;
        this.dir = dir;
        this.commit = commit;
        this.paths = paths;
        this.locations = locations;
    }

    /**
     * Writes {@code blob} as {@code jobId}'s, once: {@code true} if this call put it in place, {@code false} if the
     * final name already existed (its bytes are not compared here).
     */
    boolean write(long jobId, BlobSource blob) throws IOException {
        return commit == Commit.CONDITIONAL_CREATE ? writeConditional(jobId, blob) : writeThenRename(jobId, blob);
    }

    /** Creates and removes a probe file, proving write permission (and, on S3, conditional create support). */
    void probe() throws IOException {
        Path probe = new Path(dir, ".probe-" + UUID.randomUUID());
        Path link = new Path(dir, ".probe-" + UUID.randomUUID());
        try {
            if (commit == Commit.CONDITIONAL_CREATE) {
                conditionalCreate(probe).close();
                try {
                    conditionalCreate(probe).close();
                } catch (IOException e) {
                    if (isConflict(e)) {
                        return; // the server refused the second create: conditional writes work
                    }
                    throw e;
                }
                throw new JobInfoStoreException("The S3 server accepted a second conditional create of the same"
                        + " object (If-None-Match: * ignored); write-once cannot be guaranteed on it. Use a server"
                        + " that supports conditional writes (AWS S3, MinIO, S3Proxy)", null,
                        Location.of(probe.toUri().toString()));
            }
            ops.create(probe, false).close();
            if (commit == Commit.LOCAL_LINK) {
                Files.createLink(localFile(link), localFile(probe));
            }
        } finally {
            deleteQuietly(probe);
            deleteQuietly(link);
        }
    }

    private boolean writeThenRename(long jobId, BlobSource blob) throws IOException {
        Path target = path(jobId);
        // HDFS's rename(NONE) refuses an existing target, so it alone decides: no NameNode call to look first (one of
        // five per create). Elsewhere a look first keeps a retry of a stored blob from writing it again.
        if (commit != Commit.HDFS_RENAME && ops.exists(target)) {
            return false; // cheap path for retries; the rename below decides a race
        }
        Path temp = new Path(dir, StoreNaming.tempName(jobId, UUID.randomUUID().toString()));
        FSDataOutputStream out = null;
        try {
            if (commit == Commit.HDFS_RENAME) {
                // The block is synced by the close: one pipeline round trip and one NameNode edit fewer than hsync
                out = createSyncedOnClose(temp);
                copy(jobId, blob, out);
            } else {
                out = ops.create(temp, false);
                copy(jobId, blob, out);
                out.hsync();
            }
            out.close();
        } catch (Throwable t) {
            abandon(jobId, out, temp, t);
            throw t;
        }
        return renameIntoPlace(jobId, temp, target);
    }

    /**
     * On HDFS, a create (failing if {@code temp} exists) whose blocks the DataNodes sync to disk before they
     * acknowledge its close ({@code CreateFlag.SYNC_BLOCK}): as durable as {@code hsync} then {@code close}, without
     * the hsync's own pipeline round trip and without the NameNode {@code fsync} call (an edit-log sync) that the
     * first hsync of a new block makes. {@code HdfsJobInfoStoreContractTest} counts both.
     */
    private FSDataOutputStream createSyncedOnClose(Path temp) throws IOException {
        // the builder's defaults are create(temp, false)'s: permission with the umask, buffer, replication, block size
        return ((DistributedFileSystem) ops).createFile(temp).overwrite(false).recursive().syncBlock().build();
    }

    private boolean renameIntoPlace(long jobId, Path temp, Path target) throws IOException {
        try {
            switch (commit) {
                case HDFS_RENAME:
                    ((DistributedFileSystem) ops).rename(temp, target, Options.Rename.NONE);
                    break;
                case LOCAL_LINK:
                    Files.createLink(localFile(target), localFile(temp));
                    syncLocalDirectory();
                    deleteQuietly(temp);
                    break;
                default:
                    if (!ops.rename(temp, target)) {
                        if (ops.exists(target)) {
                            deleteQuietly(temp);
                            return false;
                        }
                        deleteQuietly(temp);
                        throw new JobInfoStoreException("The file system refused to rename the temporary file into"
                                + " place (nothing was stored)", jobId, location(jobId));
                    }
                    break;
            }
            return true;
        } catch (FileAlreadyExistsException | java.nio.file.FileAlreadyExistsException e) {
            deleteQuietly(temp);
            return false;
        } catch (JobInfoStoreException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // The rename may or may not have happened (a lost reply, a NameNode failover): look before deciding.
            boolean wasInterrupted = Thread.interrupted();
            try {
                // Only a temp we removed ourselves proves it: a rename still queued at the NameNode could otherwise
                // land after the look.
                if (ops.exists(temp) && !ops.exists(target) && ops.delete(temp, false) && !ops.exists(target)) {
                    throw new JobInfoStoreException("Renaming the blob into place failed (nothing was stored): "
                            + HadoopConfigurations.rootMessage(e), jobId, location(jobId), e);
                }
            } catch (JobInfoStoreException known) {
                throw known;
            } catch (IOException | RuntimeException unknown) {
                if (unknown != e) {
                    e.addSuppressed(unknown);
                }
            } finally {
                if (wasInterrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            throw new OutcomeUnknownException("renaming the blob into place reported "
                    + HadoopConfigurations.rootMessage(e) + "; the blob may be in place", jobId, location(jobId), e);
        }
    }

    private boolean writeConditional(long jobId, BlobSource blob) throws IOException {
        Path target = path(jobId);
        FSDataOutputStream out = null;
        try {
            out = conditionalCreate(target);
            copy(jobId, blob, out);
        } catch (Throwable t) {
            abandon(jobId, out, null, t);
            if (t instanceof IOException && isConflict((IOException) t)) {
                return false;
            }
            throw t;
        }
        try {
            out.close(); // the PUT (or the completion of the multipart upload) happens here
            return true;
        } catch (IOException e) {
            if (isConflict(e)) {
                return false;
            }
            throw new OutcomeUnknownException("completing the upload reported " + HadoopConfigurations.rootMessage(e)
                    + "; the object may exist", jobId, location(jobId), e);
        }
    }

    private FSDataOutputStream conditionalCreate(Path p) throws IOException {
        FSDataOutputStreamBuilder<?, ?> builder = ops.createFile(p).overwrite(false);
        builder.must(COND_CREATE, true);
        return (FSDataOutputStream) builder.build();
    }

    private static boolean isConflict(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof FileAlreadyExistsException || t instanceof java.nio.file.FileAlreadyExistsException
                    || S3A_CONFLICT.equals(t.getClass().getName())) {
                return true;
            }
        }
        return false;
    }

    private void copy(long jobId, BlobSource blob, FSDataOutputStream out) throws IOException {
        long written = 0;
        try (InputStream in = blob.open()) {
            byte[] buf = new byte[COPY_BUFFER];
            int n;
            while ((n = in.read(buf)) > 0) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("the writing thread was interrupted after " + written
                            + " bytes");
                }
                out.write(buf, 0, n);
                written += n;
            }
        }
        if (written != blob.length()) {
            throw new CorruptBlobException("the blob source yielded " + written + " bytes but declared "
                    + blob.length() + "; nothing was stored", jobId, location(jobId));
        }
    }

    /**
     * Gives up a write that failed before the blob was in place. An S3 upload is aborted (no object appears). A
     * temporary file is closed and removed, unless the thread was interrupted: then no more I/O is done and the file
     * is left for garbage collection.
     */
    private void abandon(long jobId, FSDataOutputStream out, Path temp, Throwable cause) {
        boolean interrupted = isInterruption(cause) || Thread.currentThread().isInterrupted();
        if (out != null) {
            try {
                if (out.hasCapability(StreamCapabilities.ABORTABLE_STREAM)) {
                    out.abort();
                } else {
                    out.close();
                }
            } catch (IOException | RuntimeException e) {
                if (e != cause) { // a failed stream rethrows its first failure on close
                    cause.addSuppressed(e);
                }
            }
        }
        if (temp == null) {
            return;
        }
        if (interrupted) {
            LOG.debug("Write of job {} interrupted; {} is left for garbage collection", jobId, temp.toUri());
            Thread.currentThread().interrupt(); // keep the caller's interrupt visible
            return;
        }
        deleteQuietly(temp);
    }

    /**
     * Whether {@code t} reports an interrupt of this thread. A socket time-out is an {@link InterruptedIOException}
     * too, but no interrupt: taking it for one set the caller's interrupt flag after a timed-out write (a NameNode
     * that stopped answering), and the caller's next wait failed.
     */
    static boolean isInterruption(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if ((c instanceof InterruptedIOException && !(c instanceof SocketTimeoutException))
                    || c instanceof ClosedByInterruptException || c instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    private java.nio.file.Path localFile(Path p) {
        return ((RawLocalFileSystem) ops).pathToFile(p).toPath();
    }

    private void syncLocalDirectory() throws IOException {
        try (FileChannel ch = FileChannel.open(localFile(dir), StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            if (System.getProperty("os.name", "").toLowerCase().contains("linux")) {
                throw e;
            }
        }
    }

    private void deleteQuietly(Path p) {
        try {
            ops.delete(p, false);
        } catch (IOException | RuntimeException ignored) {
            // a leftover temporary file is listed as incomplete and removed by GC
        }
    }

    private Path path(long jobId) {
        return paths.apply(jobId);
    }

    private Location location(long jobId) {
        return locations.apply(jobId);
    }
}
