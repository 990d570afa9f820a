package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.InlineJobInfo;

import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.util.Map;
import java.util.Set;

/**
 * Turns a map value into a verified, decoded job: a {@link JobInfoPointer} is resolved in the store it names, the
 * blob verified (by the store: header, job id, length, CRC32C and, at {@link ReadVerification#FULL}, SHA-256) and
 * matched against the pointer (job id, codec, length, CRC32C, SHA-256 and timestamp fields of the header); an {@link InlineJobInfo} is
 * decoded as it is. Every call is one store read at most and is timed as {@code jobinfo.load}.
 *
 * @param <T> the job description type
 */
final class JobResolver<T> {

    private final Map<String, JobInfoStore> storesById;
    private final JobInfoCodec<T> codec;
    private final String mapName;
    private final RegistryMeters meters;
    private final ReadVerification verification;

    JobResolver(Map<String, JobInfoStore> storesById, JobInfoCodec<T> codec, String mapName, RegistryMeters meters,
                ReadVerification verification) {
        this.verification = verification;
        this.storesById = storesById;
        this.codec = codec;
        this.mapName = mapName;
        this.meters = meters;
    }

    /** The encoded length of the job a map value describes (0 for a value of no known kind). */
    static long payloadLength(Object value) {
        return value instanceof JobInfoPointer ? ((JobInfoPointer) value).payloadLength()
                : value instanceof InlineJobInfo ? ((InlineJobInfo) value).encodedLength() : 0;
    }

    /**
     * @throws io.jobinfo.store.spi.BlobNotFoundException the pointer's blob is missing
     * @throws CorruptBlobException the blob fails verification, does not match its pointer, or cannot be decoded
     * @throws StoreReadFailure the store failed (I/O, network, server): the one failure that may pass
     * @throws JobInfoStoreException the pointer names a store not configured, the codec differs, or the value is
     *     neither a pointer nor an inline job
     */
    CachedJob<T> resolve(long jobId, Object value, ContentKey key) throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            if (value instanceof JobInfoPointer) {
                JobInfoPointer pointer = (JobInfoPointer) value;
                JobInfoStore store = storesById.get(pointer.storeId());
                if (store == null) {
                    throw new JobInfoStoreException("The pointer names store '" + pointer.storeId()
                            + "', which this registry does not know (known: " + storesById.keySet()
                            + "); add that store's configuration as a read store", jobId, null);
                }
                VerifiedBlob blob;
                try {
                    blob = store.read(jobId, verification);
                } catch (io.jobinfo.store.spi.BlobNotFoundException | CorruptBlobException e) {
                    throw e;
                } catch (JobInfoStoreException e) {
                    throw new StoreReadFailure(e); // the store failed: an outage, worth waiting out at restore
                }
                if (!pointer.matches(blob.header())) {
                    throw new CorruptBlobException("the stored blob does not match its pointer (pointer " + pointer
                            + ", blob " + blob.header() + ")", jobId, blob.location());
                }
                T job = decode(jobId, pointer.codecId(), blob.payload(), blob.location());
                return new CachedJob<>(key, pointer.initializationTimestamp(), job, blob.payload().length);
            }
            if (value instanceof InlineJobInfo) {
                InlineJobInfo inline = (InlineJobInfo) value;
                T job = decode(jobId, inline.codecId(), inline.encodedJob(), Location.of("inline", mapName));
                return new CachedJob<>(key, inline.initializationTimestamp(), job, inline.encodedLength());
            }
            throw new JobInfoStoreException("The job map holds a " + value.getClass().getName()
                    + " for this job, neither a pointer nor an inline job info", jobId, null);
        } finally {
            meters.loaded(start);
        }
    }

    private T decode(long jobId, int codecId, byte[] payload, Location location) throws JobInfoStoreException {
        if (codecId != codec.id()) {
            throw new JobInfoStoreException("The job was written with codec id " + codecId + " but this registry"
                    + " decodes codec " + codec.name() + " (id " + codec.id() + "); configure the codec that wrote it",
                    jobId, location);
        }
        try {
            return codec.decode(payload);
        } catch (CodecException e) {
            throw new CorruptBlobException("the payload passed its checksums but cannot be decoded: "
                    + e.getMessage(), jobId, location, e);
        }
    }

    /** Where the job a map value describes lives, for messages; {@code null} if unknown. */
    Location locationOf(long jobId, Object value) {
        if (value instanceof JobInfoPointer && storesById.containsKey(((JobInfoPointer) value).storeId())) {
            return storesById.get(((JobInfoPointer) value).storeId()).location(jobId);
        }
        return value instanceof InlineJobInfo ? Location.of("inline", mapName) : null;
    }

    /** The codec every job is decoded with. */
    JobInfoCodec<T> codec() {
        return codec;
    }

    /** What every store read of this resolver checks. */
    ReadVerification verification() {
        return verification;
    }

    JobInfoStore store(String storeId) {
        return storesById.get(storeId);
    }

    Set<String> storeIds() {
        return storesById.keySet();
    }
}
