package io.jobinfo.store.ops;

import io.jobinfo.store.spi.StoredBlob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a {@link GarbageCollector} run found and did.
 *
 * @param startedAt      when the run began; the grace period counts back from here
 * @param grace          the grace period
 * @param scanned        objects listed in the store
 * @param referenced     blobs whose job id is registered in the map
 * @param young          unreferenced objects younger than the grace period (kept)
 * @param orphans        unreferenced complete blobs older than the grace period
 * @param leftovers      incomplete writes older than the grace period
 * @param deleted        what was deleted (empty on a dry run)
 * @param savedByRecheck orphans kept because their job was registered during the run
 * @param failures       deletes that failed, with reasons; they are retried by the next run
 * @param deleting       {@code false} for a dry run
 */
public record GcReport(Instant startedAt, Duration grace, int scanned, int referenced, int young,
                       List<StoredBlob> orphans, List<StoredBlob> leftovers, List<StoredBlob> deleted,
                       int savedByRecheck, List<String> failures, boolean deleting) {

    public GcReport {
        orphans = List.copyOf(orphans);
        leftovers = List.copyOf(leftovers);
        deleted = List.copyOf(deleted);
        failures = List.copyOf(failures);
    }

    /** Bytes the orphans and leftovers occupy. */
    public long reclaimableBytes() {
        return orphans.stream().mapToLong(StoredBlob::sizeBytes).sum()
                + leftovers.stream().mapToLong(StoredBlob::sizeBytes).sum();
    }
}
