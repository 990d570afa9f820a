package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeFormatException;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.SealedEnvelope;
import io.jobinfo.store.envelope.VerifiedBlob;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Skeleton of a {@link JobInfoStore}: envelope checks before a write, the write-once comparison when the target
 * exists, and verified reads. A backend supplies one atomic primitive, {@link #writeIfAbsent}, plus raw reads,
 * deletes and listing.
 */
public abstract class AbstractJobInfoStore implements JobInfoStore {

    /** Where the store was when it was closed (for messages); {@code null} while it is open. */
    private final AtomicReference<Location> closedAt = new AtomicReference<>();

    private final String storeId;

    /** @param storeId the id {@link #storeId()} returns, written into every pointer */
    protected AbstractJobInfoStore(String storeId) {
        this.storeId = Objects.requireNonNull(storeId, "storeId");
    }

    @Override
    public final String storeId() {
        return storeId;
    }

    @Override
    public final CreateOutcome create(long jobId, BlobSource blob) throws JobInfoStoreException {
        Location location = location(jobId);
        EnvelopeHeader header = checkedHeader(jobId, blob, location);
        if (writeIfAbsent(jobId, blob, header)) {
            return CreateOutcome.CREATED;
        }
        return compareWithExisting(jobId, header, location);
    }

    /**
     * Writes {@code blob} to {@link #location(long)} if and only if nothing is stored there yet, atomically: readers
     * see either nothing or all of it.
     *
     * @return {@code true} if this call stored the blob, {@code false} if a complete blob already existed (the caller
     *     then compares contents)
     * @throws OutcomeUnknownException the write may have happened
     * @throws JobInfoStoreException   nothing was stored
     */
    protected abstract boolean writeIfAbsent(long jobId, BlobSource blob, EnvelopeHeader header)
            throws JobInfoStoreException;

    @Override
    public final boolean deleteIncomplete(StoredBlob leftover) throws JobInfoStoreException {
        if (!leftover.incomplete()) {
            throw new IllegalArgumentException("Refusing to delete complete blob " + leftover.location()
                    + " as a leftover; use delete(jobId)");
        }
        return deleteLeftover(leftover);
    }

    /**
     * Removes an incomplete leftover that {@link #list()} reported, through its
     * {@linkplain StoredBlob#leftoverToken() token}; idempotent. Must check the token again and refuse (with
     * {@link IllegalArgumentException}) one that is not a leftover of this store for the entry's job id.
     */
    protected abstract boolean deleteLeftover(StoredBlob leftover) throws JobInfoStoreException;

    @Override
    public VerifiedBlob read(long jobId) throws JobInfoStoreException {
        return read(jobId, ReadVerification.FULL);
    }

    @Override
    public VerifiedBlob read(long jobId, ReadVerification level) throws JobInfoStoreException {
        return readRaw(jobId, (in, location) -> BlobEnvelope.readVerified(in, jobId, location, level));
    }

    /** What a verified read does with the raw stream of a blob at {@code location}. */
    private interface RawRead<R> {
        R apply(InputStream in, Location location) throws IOException, EnvelopeFormatException;
    }

    /** Opens the raw blob, hands it to {@code read} and maps the failures as every verified read does. */
    private <R> R readRaw(long jobId, RawRead<R> read) throws JobInfoStoreException {
        Location location = location(jobId);
        try (InputStream in = openRaw(jobId)) {
            return read.apply(in, location);
        } catch (EnvelopeFormatException e) {
            throw new CorruptBlobException(e.getMessage(), jobId, location);
        } catch (JobInfoStoreException e) {
            throw e;
        } catch (IOException e) {
            throw readFailure(jobId, location, e);
        }
    }

    /**
     * Marks the store closed, its {@code location} (such as the namespace's URI) named by every later
     * {@link #checkOpen()}.
     *
     * @return {@code true} for the first call only, which then releases the backend's resources; a later close is a
     *     no-op
     */
    protected final boolean markClosed(Location location) {
        return closedAt.compareAndSet(null, Objects.requireNonNull(location, "location"));
    }

    /** @throws JobInfoStoreException "The store is closed", once {@link #markClosed} was called */
    protected final void checkOpen() throws JobInfoStoreException {
        Location location = closedAt.get();
        if (location != null) {
            throw new JobInfoStoreException("The store is closed", null, location);
        }
    }

    /** Maps an I/O failure while reading; backends may override to recognise "not found" conditions. */
    protected JobInfoStoreException readFailure(long jobId, Location location, IOException e) {
        return new JobInfoStoreException("Reading the blob failed: " + e.getMessage(), jobId, location, e);
    }

    /**
     * Reads the whole source once before anything is written and checks it is the complete, intact envelope of
     * {@code jobId} (a {@link SealedEnvelope} is checked more cheaply, see {@link #checkedSealed}): header (magic, version, header checksum), job id, declared length against the source's length,
     * and the payload's length, CRC32C and SHA-256 against the header. A blob that fails here would be stored under
     * the job id for good (write-once), so it is refused and nothing is written.
     *
     * @throws CorruptBlobException   naming what does not match; nothing was stored
     * @throws JobInfoStoreException  the source could not be read; nothing was stored
     */
    private static EnvelopeHeader checkedHeader(long jobId, BlobSource blob, Location location)
            throws JobInfoStoreException {
        if (blob instanceof SealedEnvelope) {
            return checkedSealed(jobId, (SealedEnvelope) blob, location);
        }
        EnvelopeHeader header;
        try (InputStream in = blob.open()) {
            header = BlobEnvelope.readHeader(in);
            if (header.jobId() != jobId) {
                throw new CorruptBlobException("refusing to store the envelope of job " + header.jobId()
                        + " under job " + jobId, jobId, location);
            }
            if (header.blobLength() != blob.length()) {
                throw new CorruptBlobException("refusing to store an envelope of " + blob.length()
                        + " bytes whose header declares " + header.blobLength(), jobId, location);
            }
            BlobEnvelope.verifyPayload(in, header);
        } catch (EnvelopeFormatException e) {
            throw new CorruptBlobException("refusing to store bytes that are not an intact envelope ("
                    + e.getMessage() + "); nothing was stored. Re-encode the job info and submit again",
                    jobId, location);
        } catch (JobInfoStoreException e) {
            throw e;
        } catch (IOException e) {
            throw new JobInfoStoreException("Could not read the blob to store (nothing was stored): " + e.getMessage(),
                    jobId, location, e);
        }
        return header;
    }

    /**
     * The check of an envelope this process sealed ({@link BlobEnvelope#seal}) from the very bytes it holds: job id,
     * and that the bytes are unchanged since (header bytes equal, payload CRC32C equal); see
     * {@link SealedEnvelope#unchanged()} for why the SHA-256 is not computed again.
     *
     * @throws CorruptBlobException naming what does not match; nothing was stored
     */
    private static EnvelopeHeader checkedSealed(long jobId, SealedEnvelope blob, Location location)
            throws CorruptBlobException {
        EnvelopeHeader header = blob.header();
        if (header.jobId() != jobId) {
            throw new CorruptBlobException("refusing to store the envelope of job " + header.jobId()
                    + " under job " + jobId, jobId, location);
        }
        if (!blob.unchanged()) {
            throw new CorruptBlobException("refusing to store an envelope whose bytes changed after it was sealed"
                    + " (its header or payload CRC32C no longer match); nothing was stored. Do not modify the buffer"
                    + " of a sealed envelope; encode the job again and submit again", jobId, location);
        }
        return header;
    }

    private CreateOutcome compareWithExisting(long jobId, EnvelopeHeader header, Location location)
            throws JobInfoStoreException {
        EnvelopeHeader existing;
        try (InputStream in = openRaw(jobId)) {
            existing = BlobEnvelope.verifyStream(in, jobId);
        } catch (EnvelopeFormatException e) {
            throw new CorruptBlobException("a blob already exists and is corrupt (" + e.getMessage()
                    + "); it was left in place for inspection", jobId, location);
        } catch (BlobNotFoundException e) {
            // Deleted between our failed write and this read: the job was removed concurrently. Do not resurrect it.
            throw new JobInfoStoreException("A blob existed when writing but was deleted before it could be compared;"
                    + " the job is being removed concurrently. Retry the submit if that is not the case", jobId,
                    location, e);
        } catch (JobInfoStoreException e) {
            throw e;
        } catch (IOException e) {
            throw new JobInfoStoreException("Could not read the existing blob to compare: " + e.getMessage(), jobId,
                    location, e);
        }
        if (existing.describesSameBlob(header)) {
            return CreateOutcome.ALREADY_PRESENT;
        }
        throw new BlobAlreadyExistsException(jobId, location);
    }
}
