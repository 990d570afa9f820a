package io.jobinfo.store.lifecycle;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeFormatException;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads only the envelope header of a stored blob: the check a writer makes after its reference landed, that the blob
 * it wrote is still the one under the id (a GC may have taken it for an orphan between the two steps).
 */
public final class StoredHeader {

    private StoredHeader() {
    }

    /**
     * The header of the blob of {@code jobId} ({@link BlobEnvelope#readHeader}: only its first bytes are read).
     *
     * @throws BlobNotFoundException  there is no blob under the id (any more)
     * @throws EnvelopeFormatException the stored bytes do not start with a valid header
     * @throws JobInfoStoreException   the store failed
     */
    public static EnvelopeHeader read(JobInfoStore store, long jobId) throws JobInfoStoreException,
            EnvelopeFormatException {
        try (InputStream in = store.openRaw(jobId)) {
            return BlobEnvelope.readHeader(in);
        } catch (JobInfoStoreException | EnvelopeFormatException e) {
            throw e; // both are IOExceptions: not found, a backend failure, a damaged header
        } catch (IOException e) {
            throw new JobInfoStoreException("reading the blob's header failed: " + e.getMessage(), jobId,
                    store.location(jobId), e);
        }
    }
}
