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
 * What counts as an orphan is decided by {@link OrphanRule}, the rule {@link Verifier} reports by.
 */
public final class GarbageCollector {

    /** Default grace period: 1 hour. */
    public static final Duration DEFAULT_GRACE = Duration.ofHours(1);

    private final IMap<Long, ?> map;
    private final JobInfoStore store;
    private final Duration grace;
    private final OrphanRule rule;
    private final Clock clock;

    public GarbageCollector(IMap<Long, ?> map, JobInfoStore store, Duration grace, Clock clock) {
        this.map = Objects.requireNonNull(map, "map");
        this.store = Objects.requireNonNull(store, "store");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.rule = new OrphanRule(grace);
    }

    public GarbageCollector(IMap<Long, ?> map, JobInfoStore store, Duration grace) {
        this(map, store, grace, Clock.systemUTC());
    }

    /**
     * Lists orphans and, if {@code delete}, removes them.
     *
     * @param progress called once per blob examined (for progress display); may be a no-op
     * @throws JobInfoStoreException listing the store failed; nothing was deleted
     */
    public GcReport run(boolean delete, Consumer<StoredBlob> progress) throws JobInfoStoreException {
        Instant startedAt = clock.instant();
        List<StoredBlob> listed = store.list();
        Set<Long> registered = new HashSet<>(map.keySet());
        List<StoredBlob> orphans = new ArrayList<>();
        List<StoredBlob> leftovers = new ArrayList<>();
        int referenced = 0;
        int young = 0;
        for (StoredBlob blob : listed) {
            progress.accept(blob);
            switch (rule.classify(blob, registered.contains(blob.jobId()), startedAt)) {
                case REFERENCED:
                    referenced++;
                    break;
                case YOUNG:
                    young++;
                    break;
                case LEFTOVER:
                    leftovers.add(blob);
                    break;
                case ORPHAN:
                    orphans.add(blob);
                    break;
                default:
                    throw new IllegalStateException("unknown verdict");
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
