package io.jobinfo.store.ops;

import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.JobValueFormat;
import io.jobinfo.store.lifecycle.MapValueReader;
import io.jobinfo.store.lifecycle.InlineJob;
import io.jobinfo.store.lifecycle.OrphanRule;

import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.concurrent.WorkerPool;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import static io.jobinfo.store.values.ValueLists.copyOf;

import com.google.auto.value.AutoValue;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.HashSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Checks a job map against its store: every pointer resolves to a blob whose envelope verifies (length, CRC32C,
 * SHA-256) and matches the pointer; lists inline values left in the map, blobs whose job id has no map value
 * (unreferenced, each re-checked against the map before it is reported, so a job submitted during the run is not one)
 * and leftovers of interrupted writes. Reads only.
 *
 * <p>Whether an unreferenced blob or a leftover counts as an orphan (old enough) is decided by the {@link OrphanRule}
 * the verifier is given, the same rule {@link GarbageCollector} deletes by: {@link Report#pastGrace} tells. The map
 * entries are checked on a {@link WorkerPool}; see there for interruption and failure. Values are read with a
 * {@link MapValueReader}: one that cannot be read is a broken entry named by its job id, and nothing is deserialized
 * from it.
 */
public final class Verifier {

    /**
     * What a run found.
     */
    @AutoValue
    public abstract static class Report {
        Report() {
        }

        /**
         * @param startedAt    when the run began (ages count back from here)
         * @param entries      keys in the map
         * @param validPointers pointers whose blob verified and matched
         * @param broken       pointers (or unreadable values) whose blob is missing, corrupt, mismatched or in a store
         * not configured
         * @param inline       inline values still in the map
         * @param orphans      complete blobs whose job id has no map value, young ones included
         * @param incomplete   leftovers of interrupted writes, young ones included
         * @param grace        the grace period of the {@link OrphanRule} the run used
         */
        public static Report of(Instant startedAt, int entries, int validPointers, List<Problem> broken,
                List<InlineEntry> inline, List<StoredBlob> orphans, List<StoredBlob> incomplete, Duration grace) {
            return new AutoValue_Verifier_Report(startedAt, entries, validPointers, copyOf(broken), copyOf(inline),
                    copyOf(orphans), copyOf(incomplete), grace);
        }

        /** A report whose grace period is zero. See {@link #of(Instant, int, int, List, List, List, List, Duration)}. */
        public static Report of(Instant startedAt, int entries, int validPointers, List<Problem> broken,
                List<InlineEntry> inline, List<StoredBlob> orphans, List<StoredBlob> incomplete) {
            return of(startedAt, entries, validPointers, broken, inline, orphans, incomplete, Duration.ZERO);
        }

        public abstract Instant startedAt();

        public abstract int entries();

        public abstract int validPointers();

        public abstract List<Problem> broken();

        public abstract List<InlineEntry> inline();

        public abstract List<StoredBlob> orphans();

        public abstract List<StoredBlob> incomplete();

        /** The grace period of the rule this run classified by. */
        public abstract Duration grace();

        /**
         * Whether {@code blob}, one of {@link #orphans()} or {@link #incomplete()}, is older than the grace period:
         * an orphan or a leftover by the {@link OrphanRule}, which {@code gc --delete} would remove. A younger one
         * may belong to a submit in flight.
         */
        public boolean pastGrace(StoredBlob blob) {
            OrphanRule.Verdict v = new OrphanRule(grace()).classify(blob, false, startedAt());
            return v == OrphanRule.Verdict.ORPHAN || v == OrphanRule.Verdict.LEFTOVER;
        }
    }

    /** A pointer (or value) that does not resolve. */
    @AutoValue
    public abstract static class Problem {
        Problem() {
        }

        public static Problem of(long jobId, Location location, String reason) {
            return new AutoValue_Verifier_Problem(jobId, location, reason);
        }

        public abstract long jobId();

        /** The blob's location, or the map's ({@code map:<name>}, {@code inline:<name>}) for a value. */
        public abstract Location location();

        public abstract String reason();
    }

    /** An inline value, its encoded size and its value format. */
    @AutoValue
    public abstract static class InlineEntry {
        InlineEntry() {
        }

        public static InlineEntry of(long jobId, long encodedBytes, String format) {
            return new AutoValue_Verifier_InlineEntry(jobId, encodedBytes, format);
        }

        public abstract long jobId();

        public abstract long encodedBytes();

        /** The {@link JobValueFormat#name()} of the value. */
        public abstract String format();
    }

    private final IMap<Long, Object> map;
    private final JobInfoStore store;
    private final WorkerPool pool;
    private final Clock clock;
    private final OrphanRule rule;
    private final JobValueFormats formats;
    private final Map<Integer, JobInfoCodec<?>> codecs;
    private final boolean decode;
    private final MapValueReader reader;

    /**
     * A verifier that checks envelopes and pointers only, without decoding payloads, and accepts this library's
     * {@code InlineJobInfo} as the only inline format. Prefer
     * {@link #Verifier(IMap, JobInfoStore, int, Clock, OrphanRule, JobValueFormats, Collection)}: a payload that
     * passes its checksums may still not decode.
     *
     * @param rule decides which unreferenced blobs and leftovers are past their grace period ({@link
     *             Report#pastGrace})
     */
    public Verifier(IMap<Long, Object> map, JobInfoStore store, int parallelism, Clock clock, OrphanRule rule) {
        this(map, store, parallelism, clock, rule, JobValueFormats.inlineOnly(), null);
    }

    /**
     * A verifier that also decodes every payload (blob or inline) with the codec of the id it was written with. A
     * payload that does not decode, or whose codec id is not among {@code codecs}, is reported as broken: it cannot be
     * shown to be a job.
     *
     * @param rule    decides which unreferenced blobs and leftovers are past their grace period ({@link
     *                Report#pastGrace})
     * @param formats the inline value formats the map may hold; any other value that is not a pointer is reported
     *                broken
     * @param codecs  the codecs to decode with, at most one per id; {@code null} to check envelopes only
     */
    public Verifier(IMap<Long, Object> map, JobInfoStore store, int parallelism, Clock clock, OrphanRule rule,
            JobValueFormats formats, Collection<? extends JobInfoCodec<?>> codecs) {
        this.formats = Objects.requireNonNull(formats, "formats");
        this.decode = codecs != null;
        Map<Integer, JobInfoCodec<?>> byId = new HashMap<>();
        if (codecs != null) {
            for (JobInfoCodec<?> codec : codecs) {
                if (byId.put(codec.id(), codec) != null) {
                    throw new IllegalArgumentException("two codecs with id " + codec.id());
                }
            }
        }
        this.codecs = Collections.unmodifiableMap(byId);
        this.map = Objects.requireNonNull(map, "map");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.rule = Objects.requireNonNull(rule, "rule");
        if (parallelism < 1 || parallelism > 64) {
            throw new IllegalArgumentException("parallelism must be 1..64: " + parallelism);
        }
        this.pool = new WorkerPool("jobinfo-verify", parallelism);
        this.reader = new MapValueReader(map, formats);
    }

    /** A verifier whose orphan rule has a grace period of zero (every unreferenced blob is past it). */
    public Verifier(IMap<Long, Object> map, JobInfoStore store, int parallelism, Clock clock) {
        this(map, store, parallelism, clock, new OrphanRule(Duration.ZERO));
    }

    public Verifier(IMap<Long, Object> map, JobInfoStore store) {
        this(map, store, 4, Clock.systemUTC());
    }

    /**
     * @param progress called once per map entry examined, from worker threads
     * @throws JobInfoStoreException the store cannot be listed
     * @throws IllegalStateException the calling thread was interrupted (the checks in progress were finished, the
     *     interrupt flag is set)
     */
    public Report run(Consumer<Long> progress) throws JobInfoStoreException {
        Instant startedAt = clock.instant();
        // The store is listed before the map is read: a job submitted in between has its pointer seen and its blob
        // read directly, never mistaken for an orphan.
        List<StoredBlob> listed = NamespaceClaim.jobsOnly(store.list()); // the claim is no job
        List<Long> keys = new ArrayList<>(map.keySet());
        Collections.sort(keys);
        List<Problem> broken = Collections.synchronizedList(new ArrayList<>());
        List<InlineEntry> inline = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger valid = new AtomicInteger();
        boolean complete = pool.forEach(keys, jobId -> {
            check(jobId, broken, inline, valid);
            progress.accept(jobId);
        });
        if (!complete) {
            throw new IllegalStateException("verify interrupted");
        }
        Set<Long> registered = new HashSet<>(keys);
        List<StoredBlob> orphans = new ArrayList<>();
        List<StoredBlob> incomplete = new ArrayList<>();
        for (StoredBlob blob : listed) {
            if (blob.incomplete()) {
                incomplete.add(blob);
            } else if (rule.classify(blob, registered.contains(blob.jobId()), startedAt)
                    != OrphanRule.Verdict.REFERENCED && isUnreferencedNow(blob)) {
                orphans.add(blob);
            }
        }
        broken.sort(Comparator.comparingLong(Problem::jobId));
        inline.sort(Comparator.comparingLong(InlineEntry::jobId));
        orphans.sort(Comparator.comparingLong(StoredBlob::jobId));
        incomplete.sort(Comparator.comparingLong(StoredBlob::jobId));
        return Report.of(startedAt, keys.size(), valid.get(), broken, inline, orphans, incomplete, rule.grace());
    }

    private void check(long jobId, List<Problem> broken, List<InlineEntry> inline, AtomicInteger valid) {
        MapValue read;
        try {
            read = reader.read(jobId);
        } catch (RuntimeException e) {
            broken.add(Problem.of(jobId, Location.of("map", map.getName()), "the map value cannot be read: " + e));
            return;
        }
        if (read.undecodable()) {
            broken.add(Problem.of(jobId, Location.of("map", map.getName()), read.problem()));
            return;
        }
        Object value = read.value();
        if (value == null || value instanceof io.jobinfo.store.lifecycle.DeleteMarker) {
            return; // removed meanwhile, or a job that ended and whose blob is being deleted (no job)
        }
        JobInfoPointer wrapped = formats.pointerOf(value);
        JobValueFormat format = wrapped != null ? null : formats.forValue(value);
        if (format != null) {
            InlineJob job;
            try {
                job = format.read(jobId, value);
            } catch (CodecException e) {
                broken.add(Problem.of(jobId, Location.of("map", map.getName()), "the " + format.name()
                        + " value is malformed: " + e.getMessage()));
                return;
            }
            inline.add(InlineEntry.of(jobId, job.payloadLength(), format.name()));
            String problem = decodeProblem(job.codecId(), job.payload());
            if (problem != null) {
                broken.add(Problem.of(jobId, Location.of("inline", map.getName()), problem));
            }
            return;
        }
        if (wrapped == null) {
            broken.add(Problem.of(jobId, Location.of("map", map.getName()), "the value is a "
                    + value.getClass().getName() + ", neither a pointer nor an inline job of the formats "
                    + formats.names() + "; choose the map's value format (--value-format)"));
            return;
        }
        JobInfoPointer pointer = wrapped;
        if (!pointer.storeId().equals(store.storeId())) {
            broken.add(Problem.of(jobId, Location.of("store", pointer.storeId()), "the pointer names store '"
                    + pointer.storeId() + "' but the configured store is '" + store.storeId()
                    + "'; verify with that store's configuration"));
            return;
        }
        try {
            VerifiedBlob blob = store.read(jobId);
            if (!pointer.matches(blob.header())) {
                broken.add(Problem.of(jobId, blob.location(), "the blob does not match its pointer (pointer "
                        + pointer + ", blob " + blob.header() + ")"));
                return;
            }
            String problem = decodeProblem(blob.header().codecId(), blob.payload());
            if (problem != null) {
                broken.add(Problem.of(jobId, blob.location(), problem));
                return;
            }
            valid.incrementAndGet();
        } catch (JobInfoStoreException e) {
            if (!stillPointsTo(jobId, pointer)) {
                return; // removed or replaced meanwhile; its blob went with it
            }
            broken.add(Problem.of(jobId, store.location(jobId), e.getMessage()));
        }
    }

    /** Why {@code payload} cannot be shown to be a job, or {@code null} if it decodes (or decoding is off). */
    private String decodeProblem(int codecId, byte[] payload) {
        if (!decode) {
            return null;
        }
        JobInfoCodec<?> codec = codecs.get(codecId);
        if (codec == null) {
            return "the payload passes its checksums but its codec id " + codecId + " is not known to this verify"
                    + " (known: " + new java.util.TreeSet<>(codecs.keySet()) + "), so it could not be decoded; run"
                    + " verify with that codec on the class path";
        }
        try {
            codec.decode(payload);
            return null;
        } catch (CodecException | RuntimeException e) {
            return "the payload passes its checksums but does not decode with codec " + codec.name() + " (id "
                    + codecId + "): " + e.getMessage() + "; the job cannot be restored from it";
        }
    }

    private boolean stillPointsTo(long jobId, JobInfoPointer pointer) {
        try {
            return pointer.equals(formats.pointerOf(reader.read(jobId).value()));
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** The rule's "no map value under its id", checked again now; and the blob still there. */
    private boolean isUnreferencedNow(StoredBlob blob) {
        try {
            if (map.containsKey(blob.jobId())) {
                return false; // registered during the run
            }
        } catch (RuntimeException e) {
            return true; // cannot tell: report it, the operator decides
        }
        try (InputStream in = store.openRaw(blob.jobId())) {
            return true;
        } catch (BlobNotFoundException e) {
            return false; // deleted meanwhile (a job that ended)
        } catch (java.io.IOException e) {
            return true;
        }
    }

    /** How old {@code blob} was when the run started. */
    public static Duration age(Report report, StoredBlob blob) {
        Duration d = Duration.between(blob.lastModified(), report.startedAt());
        return d.isNegative() ? Duration.ZERO : d;
    }
}
