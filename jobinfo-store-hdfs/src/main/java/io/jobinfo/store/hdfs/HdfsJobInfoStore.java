package io.jobinfo.store.hdfs;

import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.hdfs.HdfsBlobWriter.Commit;
import io.jobinfo.store.spi.AbstractJobInfoStore;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.spi.StoredBlob;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Blobs as files in one directory of a Hadoop {@link FileSystem}: {@code hdfs://} (HA nameservices too),
 * {@code file://}, {@code viewfs://} mounted on HDFS, or {@code s3a://} with conditional create (Hadoop 3.4.2 or later).
 * Any other file system is refused at open ({@link #open}), naming its scheme and class: its write-once primitive is
 * not known.
 *
 * <p>Write-once and atomic. The blob is written to a temporary file {@code .tmp-<job>-<uuid>} in the namespace
 * directory ({@code create(temp, overwrite=false)}, write, {@code hsync}, {@code close}; on HDFS the create asks the
 * DataNodes to sync the block before they acknowledge the close ({@code CreateFlag.SYNC_BLOCK}) instead of the
 * {@code hsync}) and then renamed to its final
 * name with a rename that fails if that name exists: on HDFS {@code rename(temp, final, Options.Rename.NONE)}; on
 * {@code file://} a hard link (the rename of the local file system would replace the target); on {@code viewfs://}
 * over HDFS the plain {@code rename}, whose {@code false} result is told apart from a conflict by looking for the
 * final name. On {@code s3a://} nothing is renamed: the blob is written once to its final name with a
 * conditional create ({@code If-None-Match: *}), and a failed write is aborted so that no object appears.
 *
 * <p>Failure behaviour: every method throws {@link JobInfoStoreException} (or a subclass) naming the job id and the
 * location. A write that fails before the final name exists throws a plain {@code JobInfoStoreException} and
 * removes its temporary file; a write whose thread is interrupted does no further I/O and leaves the temporary file,
 * which {@link #list()} reports as {@linkplain StoredBlob#incomplete() incomplete} and
 * {@link #deleteIncomplete(StoredBlob)} removes. When the rename or the S3 upload fails in a way that may have taken
 * effect, {@link OutcomeUnknownException} is thrown. A read from a missing blob throws {@link BlobNotFoundException};
 * a DataNode or NameNode that cannot be reached fails after the Hadoop client's own timeouts and retries
 * ({@code dfs.client.*}, {@code ipc.client.*}, settable through {@code seatunnel.hadoop.}) with the client's message.
 * On {@code s3a://} a crash in the middle of a large upload leaves an incomplete multipart upload, which S3 does not
 * list as an object and this store does not report: expire those with a bucket lifecycle rule.
 *
 * <p>The store owns its {@link FileSystem}, created with {@link FileSystem#newInstance} (never Hadoop's shared cache)
 * under the store's own {@link UserGroupInformation}, and closes it in {@link #close()}. Thread-safe.
 */
public final class HdfsJobInfoStore extends AbstractJobInfoStore {

    private static final Logger LOG = LoggerFactory.getLogger(HdfsJobInfoStore.class);
    private static final String S3A_FILE_SYSTEM = "org.apache.hadoop.fs.s3a.S3AFileSystem";
    private static final String VIEW_FILE_SYSTEM = "org.apache.hadoop.fs.viewfs.ViewFileSystem";

    private final FileSystem fs;
    private final FileSystem ops;
    private final UserGroupInformation ugi;
    private final boolean keytabLogin;
    private final Path dir;
    /** The namespace directory's location, as store-wide failures name it. */
    private final Location dirLocation;
    /** The same ending with '/': blob locations are its entries. */
    private final Location namespace;
    private final Commit commit;
    /** Writes blobs into place ({@link #writeIfAbsent}) and proves at open that it can. */
    private final HdfsBlobWriter writer;

    private HdfsJobInfoStore(FileSystem fs, FileSystem ops, Commit commit, UserGroupInformation ugi,
                             boolean keytabLogin, Path dir, String storeId) {
        super(storeId);
        this.fs = fs;
        this.ops = ops;
        this.ugi = ugi;
        this.keytabLogin = keytabLogin;
        this.dir = dir;
        String uri = dir.toUri().toString();
        this.dirLocation = Location.of(uri);
        this.namespace = uri.endsWith("/") ? dirLocation : Location.of(uri + "/");
        this.commit = commit;
        this.writer = new HdfsBlobWriter(ops, dir, commit, this::path, this::location);
    }

    /**
     * The write-once primitive of {@code ops}, or a refusal: only file systems whose primitive is known are accepted
     * (a plain {@code rename} of an unknown file system may replace an existing file, or not be atomic).
     *
     * @throws JobInfoStoreException naming the scheme and the file system class, and what is supported
     */
    private static Commit commitFor(FileSystem ops, URI fsUri, Location where) throws JobInfoStoreException {
        if (ops instanceof DistributedFileSystem) {
            return Commit.HDFS_RENAME;
        }
        if (ops.getClass() == RawLocalFileSystem.class) {
            return Commit.LOCAL_LINK;
        }
        if (S3A_FILE_SYSTEM.equals(ops.getClass().getName())) {
            if (!HadoopVersion.hasS3aConditionalCreate()) {
                throw new JobInfoStoreException(HadoopConfigurations.s3aNeedsNewerHadoop(), null, where);
            }
            return Commit.CONDITIONAL_CREATE;
        }
        if (VIEW_FILE_SYSTEM.equals(ops.getClass().getName())) {
            return Commit.RENAME; // checkUsable makes sure the namespace resolves to hdfs://
        }
        throw new JobInfoStoreException("The file system " + fsUri.getScheme() + ":// (" + ops.getClass().getName()
                + ") is not supported by the hdfs store: write-once needs an atomic create-if-absent it knows, and"
                + " on this file system it would fall back to a rename that may replace an existing blob."
                + " Supported: hdfs:// (DistributedFileSystem, atomic rename), file:// (Hadoop's local file system,"
                + " hard link), s3a:// (S3AFileSystem with conditional create, Hadoop "
                + HadoopVersion.S3A_CONDITIONAL_CREATE_SINCE + " or later) and viewfs:// mounted on hdfs://. Use one"
                + " of these, or the store types local or s3", null, where);
    }

    /**
     * Opens a store on {@code namespace} (an absolute path under {@code fs.defaultFS}, or a full URI), checking that
     * the file system is reachable and that the store can create files there (and, on {@code s3a://}, that the
     * server honours conditional creates).
     *
     * @param conf        the Hadoop configuration (see {@link HadoopConfigurations#build}); not modified
     * @param ugi         the user the store acts as; every file system call runs in its {@code doAs}
     * @param keytabLogin {@code true} if {@code ugi} logged in from a keytab (it is then re-logged in when its ticket
     *                    nears expiry, and logged out on close)
     * @throws JobInfoStoreException the file system cannot be reached or used; the message says what failed
     */
    public static HdfsJobInfoStore open(Configuration conf, String namespace, String storeId, boolean createDirectories,
                                        UserGroupInformation ugi, boolean keytabLogin) throws JobInfoStoreException {
        Path ns = new Path(namespace);
        URI fsUri = fileSystemUri(conf, ns);
        Location where = namespaceLocation(conf, namespace);
        FileSystem fs;
        try {
            fs = doAs(ugi, () -> FileSystem.newInstance(fsUri, conf));
        } catch (IOException | RuntimeException e) {
            throw new JobInfoStoreException("Cannot create the Hadoop client for " + where + " ("
                    + HadoopConfigurations.rootMessage(e) + "); check fs.defaultFS and the site files", null, where, e);
        }
        HdfsJobInfoStore store;
        try {
            Path dir = doAs(ugi, () -> fs.makeQualified(ns));
            String id = storeId != null ? storeId : StoreNaming.deriveStoreId("hdfs:" + dir.toUri());
            FileSystem ops = fs instanceof LocalFileSystem ? ((LocalFileSystem) fs).getRawFileSystem() : fs;
            store = new HdfsJobInfoStore(fs, ops, commitFor(ops, fsUri, where), ugi, keytabLogin, dir, id);
        } catch (JobInfoStoreException e) {
            closeQuietly(fs);
            throw e;
        } catch (IOException | RuntimeException e) {
            closeQuietly(fs);
            throw new JobInfoStoreException("The namespace is not a valid path on " + fsUri + " ("
                    + HadoopConfigurations.rootMessage(e) + ")", null, where, e);
        }
        try {
            store.checkUsable(createDirectories);
        } catch (JobInfoStoreException e) {
            closeQuietly(fs);
            throw e;
        }
        return store;
    }

    /** The file system {@code ns} is on: its own scheme and authority, or {@code fs.defaultFS}'s. */
    private static URI fileSystemUri(Configuration conf, Path ns) {
        return ns.toUri().getScheme() != null ? ns.toUri() : FileSystem.getDefaultUri(conf);
    }

    /**
     * Where the configured {@code namespace} is, before the file system is reached: {@code hdfs://nameservice/path}
     * (the scheme and authority of {@code fs.defaultFS} when the namespace names none), for the failures of opening
     * the store.
     */
    static Location namespaceLocation(Configuration conf, String namespace) {
        Path ns = new Path(namespace);
        URI fsUri = fileSystemUri(conf, ns);
        // the raw (percent-encoded) path: the same string as the decoded one for every path a URI holds as it is
        return Location.of(fsUri.getScheme() + "://" + (fsUri.getAuthority() == null ? "" : fsUri.getAuthority())
                + ns.toUri().getRawPath());
    }

    private void checkUsable(boolean createDirectories) throws JobInfoStoreException {
        Location where = dirLocation;
        try {
            as(() -> {
                if (commit != Commit.CONDITIONAL_CREATE) {
                    if (!ops.exists(dir)) {
                        if (!createDirectories) {
                            throw new JobInfoStoreException("The namespace directory does not exist; create it or set "
                                    + HadoopConfigurations.CREATE_DIRECTORIES + "=true", null, where);
                        }
                        ops.mkdirs(dir);
                    }
                    if (!ops.getFileStatus(dir).isDirectory()) {
                        throw new JobInfoStoreException("The namespace exists but is not a directory; point the"
                                + " namespace at a directory", null, where);
                    }
                    if (VIEW_FILE_SYSTEM.equals(ops.getClass().getName())) {
                        checkViewfsTarget(where);
                    }
                }
                writer.probe(); // on s3a this also proves that the bucket exists and the credentials work
                return null;
            });
        } catch (JobInfoStoreException e) {
            throw e;
        } catch (IOException e) {
            throw new JobInfoStoreException("The namespace is not usable: " + HadoopConfigurations.rootMessage(e)
                    + "; check fs.defaultFS, that the file system is up, and the permissions of the user", null,
                    where, e);
        }
    }

    /**
     * On {@code viewfs://} the plain rename is write-once only where the mount target's rename refuses to replace an
     * existing file: HDFS. Any other target (a local directory, an object store) is refused.
     */
    private void checkViewfsTarget(Location where) throws IOException {
        Path target = ops.resolvePath(dir);
        String scheme = target.toUri().getScheme();
        if (!"hdfs".equalsIgnoreCase(scheme)) {
            throw new JobInfoStoreException("The viewfs:// namespace resolves to " + target.toUri() + ", which is"
                    + " not hdfs://: the hdfs store relies on HDFS rename semantics behind viewfs. Mount the namespace"
                    + " on hdfs://, or give the target's URI as the namespace", null, where);
        }
    }

    /** The namespace directory, qualified. */
    public Path directory() {
        return dir;
    }

    /** The file of {@code jobId}'s blob. */
    public Path path(long jobId) {
        return new Path(dir, StoreNaming.blobName(jobId));
    }

    /** The file system the store writes through (owned by the store: do not close it). */
    public FileSystem fileSystem() {
        return ops;
    }

    @Override
    public String type() {
        return "hdfs";
    }

    @Override
    public Location location(long jobId) {
        return namespace.resolve(StoreNaming.blobName(jobId));
    }

    // ------------------------------------------------------------------------------------------------ write

    @Override
    protected boolean writeIfAbsent(long jobId, BlobSource blob, EnvelopeHeader header) throws JobInfoStoreException {
        checkOpen();
        try {
            return as(() -> writer.write(jobId, blob));
        } catch (JobInfoStoreException e) {
            throw e;
        } catch (IOException e) {
            if (HdfsBlobWriter.isInterruption(e)) {
                throw new JobInfoStoreException("Writing the blob was interrupted (nothing was stored; a temporary"
                        + " file may be left, which list() reports as incomplete): "
                        + HadoopConfigurations.rootMessage(e), jobId, location(jobId), e);
            }
            throw new JobInfoStoreException("Writing the blob failed (nothing was stored): "
                    + HadoopConfigurations.rootMessage(e), jobId, location(jobId), e);
        }
    }

    // ------------------------------------------------------------------------------------------------ read, delete

    @Override
    public InputStream openRaw(long jobId) throws JobInfoStoreException {
        checkOpen();
        try {
            return as(() -> ops.open(path(jobId)));
        } catch (FileNotFoundException e) {
            throw new BlobNotFoundException(jobId, location(jobId));
        } catch (IOException e) {
            throw new JobInfoStoreException("Opening the blob failed: " + HadoopConfigurations.rootMessage(e), jobId,
                    location(jobId), e);
        }
    }

    @Override
    protected JobInfoStoreException readFailure(long jobId, Location location, IOException e) {
        if (e instanceof FileNotFoundException) {
            return new BlobNotFoundException(jobId, location); // deleted while being read
        }
        return new JobInfoStoreException("Reading the blob failed: " + HadoopConfigurations.rootMessage(e), jobId,
                location, e);
    }

    @Override
    public boolean delete(long jobId) throws JobInfoStoreException {
        checkOpen();
        try {
            return as(() -> ops.delete(path(jobId), false));
        } catch (FileNotFoundException e) {
            return false;
        } catch (IOException e) {
            throw new JobInfoStoreException("Deleting the blob failed; retry later: "
                    + HadoopConfigurations.rootMessage(e), jobId, location(jobId), e);
        }
    }

    /**
     * Reads the directory through {@code listStatusIterator} (HDFS hands it over in batches, {@code dfs.ls.limit}
     * entries per NameNode call) and stops asking for more at the first {@code false}.
     */
    @Override
    public void listUntil(Predicate<? super StoredBlob> visitor) throws JobInfoStoreException {
        checkOpen();
        AtomicReference<RuntimeException> visitorFailure = new AtomicReference<>();
        try {
            as(() -> {
                RemoteIterator<FileStatus> entries;
                try {
                    entries = ops.listStatusIterator(dir);
                } catch (FileNotFoundException e) {
                    return null; // no blob written yet
                }
                while (entries.hasNext()) {
                    StoredBlob blob = storedBlob(entries.next());
                    if (blob == null) {
                        continue;
                    }
                    try {
                        if (!visitor.test(blob)) {
                            return null;
                        }
                    } catch (RuntimeException e) {
                        visitorFailure.set(e);
                        return null;
                    }
                }
                return null;
            });
        } catch (IOException e) {
            throw new JobInfoStoreException("Listing the namespace failed: " + HadoopConfigurations.rootMessage(e),
                    null, dirLocation, e);
        }
        if (visitorFailure.get() != null) {
            throw visitorFailure.get();
        }
    }

    /** The entry of a blob or of a write's leftover, or {@code null} for anything else in the directory. */
    private StoredBlob storedBlob(FileStatus status) {
        if (!status.isFile()) {
            return null;
        }
        String name = status.getPath().getName();
        OptionalLong blobId = StoreNaming.parseBlobName(name);
        OptionalLong tempId = blobId.isPresent() ? OptionalLong.empty() : StoreNaming.parseTempName(name);
        if (!blobId.isPresent() && !tempId.isPresent()) {
            return null;
        }
        long id = blobId.isPresent() ? blobId.getAsLong() : tempId.getAsLong();
        Instant modified = Instant.ofEpochMilli(status.getModificationTime());
        return blobId.isPresent() ? StoredBlob.of(id, namespace.resolve(name), status.getLen(), modified, false)
                : StoredBlob.leftover(id, namespace.resolve(name), status.getLen(), modified, name);
    }

    @Override
    protected boolean deleteLeftover(StoredBlob leftover) throws JobInfoStoreException {
        checkOpen();
        Location location = leftover.location();
        // the token is the temporary file's name in this directory, checked again: the entry may come from anywhere
        String name = leftover.leftoverToken();
        if (!StoreNaming.isTempNameOf(name, leftover.jobId())) {
            throw new IllegalArgumentException("Not a leftover of this store: " + location);
        }
        try {
            return as(() -> ops.delete(new Path(dir, name), false));
        } catch (FileNotFoundException e) {
            return false;
        } catch (IOException e) {
            throw new JobInfoStoreException("Deleting the leftover failed: " + HadoopConfigurations.rootMessage(e),
                    leftover.jobId(), location, e);
        }
    }

    @Override
    public void close() throws JobInfoStoreException {
        if (!markClosed(dirLocation)) {
            return;
        }
        try {
            fs.close();
        } catch (IOException e) {
            throw new JobInfoStoreException("Closing the Hadoop client failed: " + HadoopConfigurations.rootMessage(e),
                    null, dirLocation, e);
        } finally {
            if (keytabLogin) {
                try {
                    ugi.logoutUserFromKeytab();
                } catch (IOException | RuntimeException e) {
                    LOG.warn("Logging out {} failed: {}", ugi.getUserName(), e.toString());
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static void closeQuietly(FileSystem fs) {
        try {
            fs.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }

    /** Runs {@code action} as the store's user, re-logging in from the keytab first when the ticket nears expiry. */
    private <T> T as(IoAction<T> action) throws IOException {
        if (keytabLogin) {
            ugi.checkTGTAndReloginFromKeytab();
        }
        return doAs(ugi, action);
    }

    private static <T> T doAs(UserGroupInformation ugi, IoAction<T> action) throws IOException {
        try {
            return ugi.doAs((PrivilegedExceptionAction<T>) action::run);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @FunctionalInterface
    interface IoAction<T> {
        T run() throws IOException;
    }

    @Override
    public String toString() {
        return "HdfsJobInfoStore{" + dir.toUri() + ", storeId=" + storeId() + ", commit=" + commit + '}';
    }
}
