package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;

import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.VerifiedBlob;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Write-once storage of job blobs, keyed by job id. A blob is a complete envelope (see
 * {@link io.jobinfo.store.envelope.BlobEnvelope}); the store never interprets the payload.
 *
 * <p>Guarantees every implementation gives, checked by the contract suite {@code AbstractJobInfoStoreContractTest}:
 * <ul>
 *   <li><b>Write-once.</b> Once {@link #create} returned for a job id, that blob's bytes never change until it is
 *   deleted. A second create with identical bytes is a no-op; with other bytes it fails with
 *   {@link BlobAlreadyExistsException}. Among concurrent creators of one job id, exactly one wins.</li>
 *   <li><b>Atomic.</b> A blob becomes visible to readers and to {@link #list()} only once complete; a reader never
 *   sees partial bytes. An interrupted write leaves at most an {@linkplain StoredBlob#incomplete() incomplete}
 *   leftover that only garbage collection removes.</li>
 *   <li><b>Verified reads.</b> {@link #read} checks the whole envelope (magic, version, job id,
 *   length, CRC32C, SHA-256); a corrupt or truncated blob raises {@link CorruptBlobException}, never data.</li>
 * </ul>
 *
 * <p>Failure semantics: every method throws {@link JobInfoStoreException} or a subclass, naming job id and location.
 * A plain {@code JobInfoStoreException} means nothing took effect. {@link OutcomeUnknownException} means the write
 * may have happened: keep the blob, let GC decide. Implementations are thread-safe.
 *
 * <p>Job ids are any {@code long}, zero and negative ones included; they map to locations only through
 * {@link #location(long)}, so no job id can address anything outside the store's namespace.
 */
public interface JobInfoStore extends AutoCloseable {

    /** The backend identifier, as given to {@link JobInfoStoreFactory#identifier()}: {@code local}, {@code hdfs}, ... */
    String type();

    /**
     * A short, stable id of this store's namespace (at most 16 ASCII characters). Pointers record it so that a blob
     * is found again after the store configuration changes (for example after a migration to another backend).
     */
    String storeId();

    /**
     * Where the blob of {@code jobId} lives, for messages and operators; its {@link Location#toString()} is the URI
     * form. Distinct job ids have distinct locations. Pure: no I/O.
     */
    Location location(long jobId);

    /**
     * Stores {@code blob} for {@code jobId}, write-once and atomically.
     *
     * @param blob a complete envelope whose header names {@code jobId}; it may be read more than once
     * @return {@link CreateOutcome#CREATED}, or {@link CreateOutcome#ALREADY_PRESENT} if identical bytes were already
     *     stored
     * @throws BlobAlreadyExistsException a blob with other bytes exists; it is unchanged
     * @throws CorruptBlobException       {@code blob} is not a valid envelope for {@code jobId} (nothing written), or
     *                                    the already stored blob is corrupt (left in place)
     * @throws OutcomeUnknownException    the blob may or may not have been stored; do not delete it
     * @throws JobInfoStoreException      nothing was stored (for example the backend refused the request)
     */
    CreateOutcome create(long jobId, BlobSource blob) throws JobInfoStoreException;

    /**
     * Opens the stored bytes of {@code jobId} as they are, <em>without</em> verification: for tools that inspect
     * damaged blobs, and for streaming a verified payload of any size through
     * {@link io.jobinfo.store.envelope.BlobEnvelope#copyVerified}. Everyone else uses {@link #read}.
     *
     * @throws BlobNotFoundException no complete blob exists
     * @throws JobInfoStoreException the backend failed
     */
    InputStream openRaw(long jobId) throws JobInfoStoreException;

    /**
     * Reads and fully verifies the blob of {@code jobId} into memory. Limited to payloads below 2 GB (a Java array);
     * a larger one is streamed and verified with {@link io.jobinfo.store.envelope.BlobEnvelope#copyVerified} over
     * {@link #openRaw}.
     *
     * @throws BlobNotFoundException no complete blob exists
     * @throws CorruptBlobException  the stored bytes fail verification; nothing is returned
     * @throws JobInfoStoreException the backend failed
     */
    VerifiedBlob read(long jobId) throws JobInfoStoreException;

    /**
     * {@link #read(long)} to the given level: {@link ReadVerification#FULL} is {@link #read(long)};
     * {@link ReadVerification#CRC32C} checks header, job id, length and the payload's CRC32C but does not compute
     * its SHA-256 again (see {@link ReadVerification} for what that does not detect). A store that cannot do less
     * verifies fully: the default implementation is {@link #read(long)}.
     *
     * @throws BlobNotFoundException no complete blob exists
     * @throws CorruptBlobException  the stored bytes fail verification; nothing is returned
     * @throws JobInfoStoreException the backend failed
     */
    default VerifiedBlob read(long jobId, ReadVerification level) throws JobInfoStoreException {
        return read(jobId);
    }

    /**
     * How many blobs a restore should read at once from this store when its user does not say: enough requests in
     * flight to hide the backend's latency per request. 8 by default (a local disk or HDFS on 2 cores is busy with
     * that many); an object store answering in tens of milliseconds returns more. Pure: no I/O.
     */
    default int suggestedReadParallelism() {
        return 8;
    }

    /** The most blobs a reader of a store loads at once, whatever the store suggests. */
    int MAX_READ_PARALLELISM = 256;

    /**
     * {@code store}'s {@link #suggestedReadParallelism()}, bounded to 1..{@value #MAX_READ_PARALLELISM}: what a reader
     * that is not told otherwise uses (the library's restore, the SeaTunnel drop-in's reader threads).
     */
    static int boundedReadParallelism(JobInfoStore store) {
        return Math.max(1, Math.min(MAX_READ_PARALLELISM, store.suggestedReadParallelism()));
    }

    /**
     * Deletes the blob of {@code jobId}. Idempotent.
     *
     * @return {@code true} if this call removed a blob, {@code false} if there was none
     * @throws JobInfoStoreException the backend failed; the blob may still exist and the delete must be retried
     */
    boolean delete(long jobId) throws JobInfoStoreException;

    /**
     * Hands every complete blob and every incomplete leftover in this store's namespace (with size and modification
     * time, for garbage collection and migration) to {@code visitor}, one entry at a time, fetching the listing lazily,
     * and stops fetching once {@code visitor} returns {@code false}: a caller that needs only the first blobs of a
     * large store (a restore prefetch bounded by bytes) pays for no more. Stores that list in pages (S3: up to 1,000
     * keys per request, HDFS: {@code dfs.ls.limit} entries per NameNode call) then request no further page; the local
     * store stops reading its directory. Objects in the namespace that this store did not write are skipped. The
     * order is the backend's own.
     *
     * <p>An entry may be complete or {@linkplain StoredBlob#incomplete() incomplete}.
     *
     * @throws JobInfoStoreException the listing failed part way; the entries visited before were real, nothing is
     *     known of the rest
     * @throws RuntimeException what {@code visitor} threw, as is; the listing stops
     */
    void listUntil(Predicate<? super StoredBlob> visitor) throws JobInfoStoreException;

    /**
     * Every entry {@link #listUntil} hands over, collected: for callers that need the whole listing at once.
     *
     * @throws JobInfoStoreException the listing failed; nothing is returned
     */
    default List<StoredBlob> list() throws JobInfoStoreException {
        List<StoredBlob> all = new ArrayList<>();
        listUntil(all::add);
        return all;
    }

    /**
     * Removes an {@linkplain StoredBlob#incomplete() incomplete} leftover returned by {@link #list()}, through its
     * {@linkplain StoredBlob#leftoverToken() token} (never by parsing its location). Idempotent. Refuses (with
     * {@link IllegalArgumentException}) an entry that is not incomplete, and one whose token this store did not
     * give out for that job (a forged entry deletes nothing): complete blobs are removed with {@link #delete(long)}
     * only.
     */
    boolean deleteIncomplete(StoredBlob leftover) throws JobInfoStoreException;

    /** Releases clients and connections. Later calls fail. Idempotent. */
    @Override
    void close() throws JobInfoStoreException;
}
