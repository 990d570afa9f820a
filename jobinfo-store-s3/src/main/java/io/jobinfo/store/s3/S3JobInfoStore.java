package io.jobinfo.store.s3;

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
import java.io.UncheckedIOException;
import java.io.UnsupportedEncodingException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Blobs as objects {@code <prefix><16 hex>.jobinfo} in one S3 bucket (AWS S3, MinIO or any S3-compatible store that
 * honours conditional writes), through the AWS SDK v2 with its standard retry strategy.
 *
 * <p><b>Write-once.</b> A blob up to {@code s3.multipart.threshold} is one {@code PutObject} with
 * {@code If-None-Match: *} (with the SDK's CRC32C checksum in {@code s3.request-checksum} mode {@code crc32c}); a
 * larger one is a multipart upload completed with {@code If-None-Match: *}. On a server found at start-up to honour
 * the condition on {@code PutObject} but not on {@code CompleteMultipartUpload} (Ceph RGW 16), every blob is one
 * conditional {@code PutObject} instead, and a blob above S3's 5 GiB limit for one {@code PutObject} is refused with
 * an error saying so ({@link WriteMode#SINGLE_PUT}). Either way the object appears atomically and only if the key was
 * free: a 412 answer makes
 * {@link #create} read the existing object back and compare (same bytes, for example an SDK retry of our own write:
 * {@code ALREADY_PRESENT}; other bytes: {@code BlobAlreadyExistsException}). A failed multipart upload is aborted; if
 * even the abort fails, the upload is left for garbage collection (see below) and a WARN names its upload id.
 *
 * <p><b>Incomplete leftovers.</b> S3 has no visible temporary objects. {@link #list()} reports multipart uploads in
 * progress under the prefix whose key is a blob name as {@linkplain StoredBlob#incomplete() incomplete}, with size 0
 * (unknown) and their initiation time; their location shows {@code ?uploadId=...} for people, and their
 * {@linkplain StoredBlob#leftoverToken() leftover token} is the upload id, which {@link #deleteIncomplete} aborts
 * (under the key of the entry's job id: nothing is parsed out of the location). A write still in progress is listed too: garbage collection's grace period must exceed the longest
 * upload.
 *
 * <p><b>Failures.</b> Every method throws {@link JobInfoStoreException} naming job id, location and (for transport
 * failures) the endpoint with what to check. A create that fails after the request may have reached the server (5xx
 * after retries, timeout, lost connection, or any failure after an earlier SDK attempt that may have landed) throws
 * {@link OutcomeUnknownException}; a plain {@code JobInfoStoreException} only when nothing can have been stored: every
 * attempt was refused (4xx) or never connected (see {@link S3Attempts}). Reads throw {@link BlobNotFoundException} for a missing key and
 * {@link CorruptBlobException} for bytes that fail envelope verification. Credentials never appear in messages or
 * logs.
 *
 * <p>If the server was found at start-up not to honour conditional writes and {@code s3.allow-unconditional-writes}
 * is true, creates fall back to "HEAD, then unconditional PUT": racing creators of one job id may then both succeed,
 * the last one winning. That mode is logged at WARN when the store opens.
 *
 * <p><b>Connections.</b> Every request's retries also cover a pooled connection the server closed, for example
 * after the endpoint restarted ({@link StaleConnectionRetryStrategy}, which says why a write may be repeated too).
 *
 * <p>Thread-safe; one {@link S3Client} (with its connection pool) per store, released by {@link #close()}.
 */
public final class S3JobInfoStore extends AbstractJobInfoStore {

    /** What {@link #suggestedReadParallelism()} returns. */
    static final int SUGGESTED_READ_PARALLELISM = 32;


    private static final Logger LOG = LoggerFactory.getLogger(S3JobInfoStore.class);
    private static final String CONTENT_TYPE = "application/octet-stream";
    private static final String UPLOAD_ID_PARAM = "?uploadId=";
    private static final int MAX_PARTS = 10_000;
    /** Keys per listing request: S3's largest page. */
    static final int LIST_PAGE_KEYS = 1000;

    /**
     * How creates are made atomic, as the start-up probe found the server
     * ({@link S3JobInfoStoreFactory}).
     */
    enum WriteMode {
        /** {@code If-None-Match: *} on PutObject and on CompleteMultipartUpload. */
        CONDITIONAL,
        /**
         * The server honours {@code If-None-Match: *} on PutObject only: every blob is one conditional PutObject,
         * at most {@value S3StoreSettings#MAX_PART_SIZE} bytes.
         */
        SINGLE_PUT,
        /** Explicitly allowed ({@code s3.allow-unconditional-writes}): HEAD, then an unconditional write. */
        UNCONDITIONAL
    }

    private final S3Clients clients;
    /** The standard retry strategy and retries of dead pooled connections. */
    private final S3Client s3;
    private final S3StoreSettings settings;
    private final String bucket;
    private final String prefix;
    /** The location of the prefix, ending with '/': blob locations are its entries. */
    private final Location locationBase;
    private final WriteMode writeMode;
    private final boolean conditionalWrites;
    private final boolean sdkChecksums;
    private volatile int listPageKeys = LIST_PAGE_KEYS;

    /** Tests: one client for everything, with the SDK's CRC32C checksums. */
    S3JobInfoStore(S3Client s3, S3StoreSettings settings, String storeId, boolean conditionalWrites) {
        this(S3Clients.single(s3, S3StoreSettings.ChecksumMode.CRC32C), settings, storeId,
                conditionalWrites ? WriteMode.CONDITIONAL : WriteMode.UNCONDITIONAL);
    }

    S3JobInfoStore(S3Clients clients, S3StoreSettings settings, String storeId, WriteMode writeMode) {
        super(storeId);
        this.clients = clients;
        this.s3 = clients.s3;
        this.sdkChecksums = clients.sdkChecksums();
        this.settings = settings;
        this.bucket = settings.bucket;
        this.prefix = settings.prefix;
        this.writeMode = writeMode;
        this.conditionalWrites = writeMode != WriteMode.UNCONDITIONAL;
        this.locationBase = locationOfKey(settings.bucket, settings.prefix);
    }

    /** Tests: list with pages of {@code keys} keys, so that a few blobs span several pages. */
    S3JobInfoStore listPageKeys(int keys) {
        if (keys < 1 || keys > LIST_PAGE_KEYS) {
            throw new IllegalArgumentException("keys per page must be 1.." + LIST_PAGE_KEYS + ": " + keys);
        }
        this.listPageKeys = keys;
        return this;
    }

    /** {@code s3://bucket/key}, percent-encoded where a URI needs it (spaces, non-ASCII). */
    static Location locationOfKey(String bucket, String key) {
        try {
            return Location.of(new URI("s3", bucket, "/" + key, null).toASCIIString());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("bucket " + bucket + " cannot be part of a URI", e);
        }
    }

    /** The bucket holding the blobs. */
    public String bucket() {
        return bucket;
    }

    /** The key prefix in front of every blob name: empty, or ending with '/'. */
    public String keyPrefix() {
        return prefix;
    }

    /** The object key of {@code jobId}'s blob. */
    public String key(long jobId) {
        return prefix + StoreNaming.blobName(jobId);
    }

    /** Whether creates are conditional ({@code If-None-Match: *}); false only in the weaker, explicitly allowed mode. */
    public boolean conditionalWrites() {
        return conditionalWrites;
    }

    /** How creates are made atomic on this server. */
    WriteMode writeMode() {
        return writeMode;
    }

    /** The request checksum mode in use (never {@code auto}: the start-up probe resolved it). */
    S3StoreSettings.ChecksumMode checksumMode() {
        return clients.checksumMode;
    }

    /**
     * Loaders a restore uses by default: {@value #SUGGESTED_READ_PARALLELISM}. An object store answers each GET after
     * tens of milliseconds; with 8 loaders a restore of 1000 jobs waits 125 round trips in turn. The client's
     * connection pool ({@link S3JobInfoStoreFactory#MAX_CONNECTIONS}) holds more than that.
     */
    @Override
    public int suggestedReadParallelism() {
        return SUGGESTED_READ_PARALLELISM;
    }

    @Override
    public String type() {
        return S3JobInfoStoreFactory.IDENTIFIER;
    }

    @Override
    public Location location(long jobId) {
        return locationBase.resolve(StoreNaming.blobName(jobId));
    }

    // ------------------------------------------------------------------------------------------------ write

    @Override
    protected boolean writeIfAbsent(long jobId, BlobSource blob, EnvelopeHeader header) throws JobInfoStoreException {
        checkOpen();
        if (!conditionalWrites && exists(jobId)) {
            return false;
        }
        if (blob.length() > S3StoreSettings.MAX_OBJECT_SIZE) {
            throw new JobInfoStoreException("The blob is " + blob.length() + " bytes, above S3's 5 TiB object limit",
                    jobId, location(jobId));
        }
        if (writeMode == WriteMode.SINGLE_PUT) {
            if (blob.length() > S3StoreSettings.MAX_PART_SIZE) {
                throw new JobInfoStoreException("The blob is " + blob.length() + " bytes, above the 5 GiB S3 allows"
                        + " in one PutObject (nothing was stored). The S3 server at " + settings.describeEndpoint()
                        + " honours If-None-Match: * on PutObject but not on CompleteMultipartUpload, so every blob"
                        + " is written by one conditional PutObject; use a server that also honours it on"
                        + " CompleteMultipartUpload (AWS S3, recent MinIO) for larger blobs", jobId, location(jobId));
            }
            return singleWrite(jobId, blob);
        }
        if (blob.length() >= settings.multipartThreshold) {
            return multipartWrite(jobId, blob);
        }
        return singleWrite(jobId, blob);
    }

    private boolean singleWrite(long jobId, BlobSource blob) throws JobInfoStoreException {
        PutObjectRequest.Builder put = PutObjectRequest.builder()
                .bucket(bucket)
                .key(key(jobId))
                .contentType(CONTENT_TYPE)
                .contentLength(blob.length());
        if (sdkChecksums) {
            put.checksumAlgorithm(ChecksumAlgorithm.CRC32_C);
        }
        if (conditionalWrites) {
            put.ifNoneMatch("*");
        }
        applySse(put);
        ReopeningProvider body = new ReopeningProvider(blob);
        try {
            s3.putObject(put.build(), RequestBody.fromContentProvider(body, blob.length(), CONTENT_TYPE));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == 412) {
                return false;
            }
            throw writeFailure(jobId, "PutObject", e);
        } catch (UncheckedIOException e) {
            throw new JobInfoStoreException("Could not read the blob to store (nothing was stored): " + e.getCause(),
                    jobId, location(jobId), e.getCause());
        } catch (SdkException e) {
            Throwable cause = e.getCause();
            while (cause != null && !(cause instanceof UncheckedIOException)) {
                cause = cause.getCause();
            }
            if (cause != null && !S3Attempts.anEarlierAttemptMayHaveLanded(e)) {
                // our own source failed before the request could complete: the server cannot have stored it
                throw new JobInfoStoreException("Could not read the blob to store (nothing was stored): "
                        + cause.getCause(), jobId, location(jobId), e);
            }
            throw writeFailure(jobId, "PutObject", e);
        } finally {
            body.closeQuietly();
        }
    }

    private boolean multipartWrite(long jobId, BlobSource blob) throws JobInfoStoreException {
        String key = key(jobId);
        long length = blob.length();
        long partSize = Math.max(settings.partSize, ceilToMiB((length + MAX_PARTS - 1) / MAX_PARTS));
        CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder()
                .bucket(bucket).key(key).contentType(CONTENT_TYPE);
        if (sdkChecksums) {
            create.checksumAlgorithm(ChecksumAlgorithm.CRC32_C);
        }
        applySse(create);
        String uploadId;
        try {
            uploadId = s3.createMultipartUpload(create.build()).uploadId();
        } catch (SdkException e) {
            // CreateMultipartUpload stores nothing visible; an upload created despite the error is listed as
            // incomplete and aborted by GC.
            throw new JobInfoStoreException("Starting the multipart upload failed (nothing was stored): "
                    + S3Errors.describe(e) + hint(e), jobId, location(jobId), e);
        }
        boolean completed = false;
        try {
            List<CompletedPart> parts = new ArrayList<>();
            try (InputStream in = blob.open()) {
                byte[] buffer = new byte[(int) Math.min(partSize, length)];
                long sent = 0;
                int partNumber = 1;
                while (sent < length) {
                    int want = (int) Math.min(partSize, length - sent);
                    int got = readFully(in, buffer, want);
                    if (got != want) {
                        throw new CorruptBlobException("the blob source ended after " + (sent + got)
                                + " bytes but declared " + length + "; nothing was stored", jobId, location(jobId));
                    }
                    int number = partNumber;
                    UploadPartResponse r = s3.uploadPart(p -> p.bucket(bucket).key(key).uploadId(uploadId)
                                    .partNumber(number).contentLength((long) want)
                                    .checksumAlgorithm(sdkChecksums ? ChecksumAlgorithm.CRC32_C : null),
                            RequestBody.fromBytes(want == buffer.length ? buffer : java.util.Arrays.copyOf(buffer,
                                    want)));
                    parts.add(CompletedPart.builder().partNumber(number).eTag(r.eTag())
                            .checksumCRC32C(r.checksumCRC32C()).build());
                    sent += want;
                    partNumber++;
                }
                if (in.read() >= 0) {
                    throw new CorruptBlobException("the blob source yielded more than the declared " + length
                            + " bytes; nothing was stored", jobId, location(jobId));
                }
            } catch (IOException e) {
                if (e instanceof JobInfoStoreException) {
                    throw (JobInfoStoreException) e;
                }
                throw new JobInfoStoreException("Could not read the blob to store (nothing was stored): " + e,
                        jobId, location(jobId), e);
            } catch (SdkException e) {
                completed = true; // aborted here, not again in finally
                String upload = abortQuietly(key, uploadId, jobId) ? "the upload was aborted"
                        : "the upload could not be aborted: list() reports it as incomplete and garbage collection"
                        + " removes it";
                throw new JobInfoStoreException("Uploading a part failed (nothing was stored; " + upload + "): "
                        + S3Errors.describe(e) + hint(e), jobId, location(jobId), e);
            }
            try {
                s3.completeMultipartUpload(c -> {
                    c.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(u -> u.parts(parts));
                    if (conditionalWrites) {
                        c.ifNoneMatch("*");
                    }
                });
                completed = true;
                return true;
            } catch (S3Exception e) {
                if (e.statusCode() == 412) {
                    return false;
                }
                if (e instanceof NoSuchUploadException && exists(jobId)) {
                    // An SDK retry of a completion that had succeeded: the upload is gone, the object is there.
                    completed = true;
                    return false;
                }
                throw writeFailure(jobId, "CompleteMultipartUpload", e);
            } catch (SdkException e) {
                throw writeFailure(jobId, "CompleteMultipartUpload", e);
            }
        } finally {
            if (!completed) {
                abortQuietly(key, uploadId, jobId);
            }
        }
    }

    /** Reads up to {@code want} bytes into {@code buffer}; fewer only at the end of the stream. */
    private static int readFully(InputStream in, byte[] buffer, int want) throws IOException {
        int got = 0;
        while (got < want) {
            int n = in.read(buffer, got, want - got);
            if (n < 0) {
                break;
            }
            got += n;
        }
        return got;
    }

    private static long ceilToMiB(long bytes) {
        long mib = 1L << 20;
        return (bytes + mib - 1) / mib * mib;
    }

    /** Aborts an upload; {@code false} (and a WARN) if that failed, in which case GC removes it later. */
    private boolean abortQuietly(String key, String uploadId, long jobId) {
        try {
            s3.abortMultipartUpload(a -> a.bucket(bucket).key(key).uploadId(uploadId));
            return true;
        } catch (NoSuchUploadException gone) {
            return true; // already gone
        } catch (SdkException e) {
            LOG.warn("Could not abort the multipart upload {} of job {} at {} ({}); list() reports it as incomplete"
                    + " and garbage collection removes it", uploadId, jobId, location(jobId), S3Errors.describe(e));
            return false;
        }
    }

    private void applySse(PutObjectRequest.Builder put) {
        applySse(put, settings);
    }

    static void applySse(PutObjectRequest.Builder put, S3StoreSettings settings) {
        applySse(settings, put::serverSideEncryption, put::ssekmsKeyId);
    }

    private void applySse(CreateMultipartUploadRequest.Builder create) {
        applySse(create, settings);
    }

    static void applySse(CreateMultipartUploadRequest.Builder create, S3StoreSettings settings) {
        applySse(settings, create::serverSideEncryption, create::ssekmsKeyId);
    }

    /** Server-side encryption as {@code settings} ask, through a request builder's two setters. */
    private static void applySse(S3StoreSettings settings, Consumer<ServerSideEncryption> encryption,
            Consumer<String> kmsKeyId) {
        switch (settings.sse) {
            case S3:
                encryption.accept(ServerSideEncryption.AES256);
                break;
            case KMS:
                encryption.accept(ServerSideEncryption.AWS_KMS);
                kmsKeyId.accept(settings.sseKmsKeyId);
                break;
            default:
                break;
        }
    }

    /**
     * Classifies a failed write call. "Nothing was stored" (a plain {@link JobInfoStoreException}) only when it is
     * proven: no earlier SDK attempt may have reached the server ({@link S3Attempts}) and the last one was refused
     * (4xx other than 408, or 501) or never connected. Everything else is {@link OutcomeUnknownException}: an attempt
     * may have been carried out whose answer was lost.
     */
    private JobInfoStoreException writeFailure(long jobId, String operation, SdkException e) {
        int attempts = S3Attempts.count(e);
        if (!S3Attempts.anEarlierAttemptMayHaveLanded(e)) {
            int status = e instanceof S3Exception ? ((S3Exception) e).statusCode() : 0;
            if (status >= 400 && status < 500 && status != 408 || status == 501) {
                return new JobInfoStoreException(operation + " was refused (nothing was stored): "
                        + S3Errors.describe(e) + hint(e), jobId, location(jobId), e);
            }
            if (!(e instanceof S3Exception) && S3Attempts.lastAttemptNeverConnected(e)) {
                return new JobInfoStoreException(operation + " could not connect in " + attempts
                        + (attempts == 1 ? " attempt" : " attempts") + " (nothing was stored): "
                        + S3Errors.describe(e) + hint(e), jobId, location(jobId), e);
            }
        }
        String attemptsNote = attempts > 1 ? " (" + attempts + " attempts; an earlier one may have been carried out"
                + " and its answer lost)" : "";
        return new OutcomeUnknownException(operation + " failed after the request may have reached the server"
                + attemptsNote + ": " + S3Errors.describe(e) + hint(e)
                + ". Retrying the create with the same bytes is safe",
                jobId, location(jobId), e);
    }

    // ------------------------------------------------------------------------------------------------ read

    @Override
    public InputStream openRaw(long jobId) throws JobInfoStoreException {
        checkOpen();
        try {
            return s3.getObject(g -> g.bucket(bucket).key(key(jobId))
                    .checksumMode(sdkChecksums ? ChecksumMode.ENABLED : null));
        } catch (SdkException e) {
            if (S3Errors.isNotFound(e)) {
                throw new BlobNotFoundException(jobId, location(jobId));
            }
            throw new JobInfoStoreException("Reading the blob failed: " + S3Errors.describe(e) + hint(e), jobId,
                    location(jobId), e);
        }
    }

    @Override
    protected JobInfoStoreException readFailure(long jobId, Location location, IOException e) {
        return new JobInfoStoreException("Reading the blob failed while streaming it: " + e + "; check the"
                + " connection to " + settings.describeEndpoint() + " and retry", jobId, location, e);
    }

    private boolean exists(long jobId) throws JobInfoStoreException {
        try {
            s3.headObject(h -> h.bucket(bucket).key(key(jobId)));
            return true;
        } catch (SdkException e) {
            if (S3Errors.isNotFound(e)) {
                return false;
            }
            throw new JobInfoStoreException("Checking for the blob failed: " + S3Errors.describe(e) + hint(e), jobId,
                    location(jobId), e);
        }
    }

    // ------------------------------------------------------------------------------------------------ delete, list

    @Override
    public boolean delete(long jobId) throws JobInfoStoreException {
        checkOpen();
        // DeleteObject answers 204 whether or not the key existed: HEAD first to report what happened.
        boolean existed = exists(jobId);
        if (!existed) {
            return false;
        }
        try {
            s3.deleteObject(d -> d.bucket(bucket).key(key(jobId)));
            return true;
        } catch (SdkException e) {
            throw new JobInfoStoreException("Deleting the blob failed; it may still exist, retry later: "
                    + S3Errors.describe(e) + hint(e), jobId, location(jobId), e);
        }
    }

    /**
     * Complete blobs first (ListObjectsV2, {@value #LIST_PAGE_KEYS} keys per request), then the multipart uploads in
     * progress; each page is requested only when the visitor has taken every entry before it, and none after it
     * answered {@code false}.
     */
    @Override
    public void listUntil(Predicate<? super StoredBlob> visitor) throws JobInfoStoreException {
        checkOpen();
        try {
            for (S3Object o : s3.listObjectsV2Paginator(l -> l.bucket(bucket).prefix(prefix).delimiter("/")
                    .maxKeys(listPageKeys)).contents()) {
                String name = o.key().substring(prefix.length());
                OptionalLong id = StoreNaming.parseBlobName(name);
                if (id.isPresent() && !visitor.test(StoredBlob.of(id.getAsLong(), locationBase.resolve(name), o.size(),
                        o.lastModified(), false))) {
                    return;
                }
            }
            for (MultipartUpload u : s3.listMultipartUploadsPaginator(l -> l.bucket(bucket).prefix(prefix)
                    .delimiter("/").maxUploads(listPageKeys)).uploads()) {
                if (!u.key().startsWith(prefix)) {
                    continue;
                }
                String name = u.key().substring(prefix.length());
                OptionalLong id = StoreNaming.parseBlobName(name);
                if (id.isPresent()) {
                    Instant started = u.initiated() != null ? u.initiated() : Instant.EPOCH;
                    // the upload id is shown for people only: deleteLeftover takes it from the token
                    Location upload = Location.of(locationBase.resolve(name) + UPLOAD_ID_PARAM
                            + urlEncode(u.uploadId()));
                    if (!visitor.test(StoredBlob.leftover(id.getAsLong(), upload, 0, started, u.uploadId()))) {
                        return;
                    }
                }
            }
        } catch (SdkException e) {
            throw new JobInfoStoreException("Listing the store failed: " + S3Errors.describe(e) + hint(e), null,
                    locationBase, e);
        }
    }

    @Override
    protected boolean deleteLeftover(StoredBlob leftover) throws JobInfoStoreException {
        checkOpen();
        Location location = leftover.location();
        // the token is the upload id; the key is the job's own, from its id: nothing is parsed out of the location
        String uploadId = leftover.leftoverToken();
        if (uploadId == null) {
            throw new IllegalArgumentException("Not a leftover of this store (no upload id): " + location);
        }
        String name = StoreNaming.blobName(leftover.jobId());
        try {
            s3.abortMultipartUpload(a -> a.bucket(bucket).key(prefix + name).uploadId(uploadId));
            return true;
        } catch (SdkException e) {
            if (S3Errors.isNotFound(e)) {
                return false;
            }
            throw new JobInfoStoreException("Aborting the incomplete upload failed: " + S3Errors.describe(e) + hint(e),
                    leftover.jobId(), location, e);
        }
    }

    @Override
    public void close() {
        if (markClosed(locationBase)) {
            clients.close();
        }
    }

    // ------------------------------------------------------------------------------------------------ messages

    /** What to do about {@code e}, as a sentence starting with "; ". */
    String hint(SdkException e) {
        return S3Errors.hint(e, settings, clients.checksumMode);
    }

    @Override
    public String toString() {
        return "S3JobInfoStore{" + locationBase + ", endpoint=" + settings.describeEndpoint() + ", storeId="
                + storeId() + '}';
    }

    /** Opens the blob again for every SDK attempt, and closes what it opened. */
    private static final class ReopeningProvider implements ContentStreamProvider {
        private final BlobSource blob;
        private InputStream current;

        ReopeningProvider(BlobSource blob) {
            this.blob = blob;
        }

        @Override
        public synchronized InputStream newStream() {
            closeQuietly();
            try {
                current = blob.open();
                return current;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        synchronized void closeQuietly() {
            if (current != null) {
                try {
                    current.close();
                } catch (IOException ignored) {
                    // a source stream that fails to close holds nothing of ours
                }
                current = null;
            }
        }
    }

    private static String urlEncode(String value) {
        try {
            return URLEncoder.encode(value, "UTF-8");
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException("UTF-8 is always supported", e);
        }
    }

    static String newProbeName() {
        return ".probe-" + UUID.randomUUID();
    }
}
