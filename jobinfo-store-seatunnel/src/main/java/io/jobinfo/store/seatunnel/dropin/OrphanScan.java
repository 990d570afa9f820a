package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.map.IMap;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;

import java.time.Instant;
import java.util.function.LongConsumer;

/**
 * The drop-in gc's scan of one store against one map, shared by the running-job and the history movers: every blob
 * older than the cutoff is looked at once; a leftover of an interrupted write is deleted at once, the namespace's
 * claim is skipped, and the id of a blob whose map has no entry is handed to {@code orphan}, which decides under the
 * id's claim lock whether to delete it ({@code BlobDeletion}). Nothing here deletes a blob an entry names.
 */
final class OrphanScan {

    private OrphanScan() {
    }

    /** @throws JobInfoStoreException the store's listing or a leftover's delete failed (the next gc tries again) */
    static void scan(JobInfoStore store, IMap<Long, ?> map, Instant cutoff, LongConsumer orphan)
            throws JobInfoStoreException {
        for (StoredBlob blob : store.list()) {
            if (!blob.lastModified().isBefore(cutoff)) {
                continue;
            }
            if (blob.incomplete()) {
                store.deleteIncomplete(blob);
            } else if (!NamespaceClaim.isClaim(blob.jobId()) && !map.containsKey(blob.jobId())) {
                orphan.accept(blob.jobId());
            }
        }
    }
}
