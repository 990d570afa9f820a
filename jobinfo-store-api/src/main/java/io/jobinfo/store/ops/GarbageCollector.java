package io.jobinfo.store.ops;

import com.hazelcast.map.IMap;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Finds and removes orphans: blobs that no entry of the job map references and that are older than a grace period,
 * and leftovers of interrupted writes older than the grace period.
 *
 * <p>Safety: a blob is kept whenever the map holds <em>any</em> value under its job id (pointer or inline, whichever
 * store the pointer names), and the map is checked again right before each delete, so a job registered during the
 * run keeps its blob. Blobs younger than the grace period are never touched: that covers submits in flight (blob
 * written, pointer not yet). The grace period must exceed the longest time a submit may take, retries included.
 */
public final class GarbageCollector {

    /** Default grace period: 1 hour. */
    public static final Duration DEFAULT_GRACE = Duration.ofHours(1);

    private final IMap<Long, ?> map;
    private final JobInfoStore store;
    private final Duration grace;
    private final Clock clock;
    private volatile Observer observer = Observer.NONE;

    /**
     * Test seam: told about each step of a deleting run, on the GC thread, so that race tests can pause GC exactly
     * between deciding to delete a blob and deleting it. Production code leaves it unset (a no-op).
     */
    public interface Observer {
        /** No-op. */
        Observer NONE = new Observer() {
        };

        /** GC has decided that the blob of {@code jobId} is an orphan and is about to delete it. */
        default void beforeDelete(long jobId) {
        }
    }

    public GarbageCollector(IMap<Long, ?> map, JobInfoStore store, Duration grace, Clock clock) {
        this.map = Objects.requireNonNull(map, "map");
        this.store = Objects.requireNonNull(store, "store");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace period must not be negative: " + grace);
        }
    }

    public GarbageCollector(IMap<Long, ?> map, JobInfoStore store, Duration grace) {
        this(map, store, grace, Clock.systemUTC());
    }

    /** Sets the test seam; see {@link Observer}. */
    public GarbageCollector observer(Observer observer) {
        this.observer = Objects.requireNonNull(observer, "observer");
        return this;
    }

    /**
     * Lists orphans and, if {@code delete}, removes them.
     *
     * @param progress called once per blob examined (for progress display); may be a no-op
     * @throws JobInfoStoreException listing the store failed; nothing was deleted
     */
    public GcReport run(boolean delete, Consumer<StoredBlob> progress) throws JobInfoStoreException {
        Instant startedAt = clock.instant();
        Instant cutoff = startedAt.minus(grace);
        List<StoredBlob> listed = store.list();
        Set<Long> registered = new HashSet<>(map.keySet());
        List<StoredBlob> orphans = new ArrayList<>();
        List<StoredBlob> leftovers = new ArrayList<>();
        int referenced = 0;
        int young = 0;
        for (StoredBlob blob : listed) {
            progress.accept(blob);
            if (!blob.incomplete() && registered.contains(blob.jobId())) {
                referenced++;
            } else if (!blob.lastModified().isBefore(cutoff)) {
                young++;
            } else if (blob.incomplete()) {
                leftovers.add(blob);
            } else {
                orphans.add(blob);
            }
        }
        List<StoredBlob> deleted = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int savedByRecheck = 0;
        if (delete) {
            for (StoredBlob orphan : orphans) {
                try {
                    if (map.containsKey(orphan.jobId())) {
                        savedByRecheck++; // registered while we were running
                        continue;
                    }
                    observer.beforeDelete(orphan.jobId());
                    if (store.delete(orphan.jobId())) {
                        deleted.add(orphan);
                    }
                } catch (JobInfoStoreException | RuntimeException e) {
                    failures.add(orphan.location() + ": " + e.getMessage());
                }
            }
            for (StoredBlob leftover : leftovers) {
                try {
                    if (store.deleteIncomplete(leftover)) {
                        deleted.add(leftover);
                    }
                } catch (JobInfoStoreException | RuntimeException e) {
                    failures.add(leftover.location() + ": " + e.getMessage());
                }
            }
        }
        return new GcReport(startedAt, grace, listed.size(), referenced, young, orphans, leftovers, deleted,
                savedByRecheck, failures, delete);
    }
}
