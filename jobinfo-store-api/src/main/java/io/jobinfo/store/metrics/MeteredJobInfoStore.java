package io.jobinfo.store.metrics;

import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.spi.BlobSource;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoredBlob;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@link JobInfoStore} that records every operation of the store it wraps in a Micrometer {@link MeterRegistry}:
 *
 * <ul>
 *   <li>{@value #OPERATIONS}, a {@link Timer} per {@code backend} (the store's type), {@code store} (its store id),
 *   {@code operation} ({@code create}, {@code read}, {@code read-to}, {@code open-raw}, {@code delete},
 *   {@code list}, {@code delete-incomplete}) and {@code outcome}: its count is the number of calls, its total time
 *   their latency, and the outcome tells successes from errors ({@link #outcomeOf}).</li>
 *   <li>{@value #BYTES}, a {@link DistributionSummary} (base unit bytes) per {@code backend}, {@code store} and
 *   {@code operation} ({@code create}: envelope bytes written; {@code read}, {@code read-to}: payload bytes
 *   returned after verification).</li>
 * </ul>
 *
 * <p>The decorator changes no behaviour: results and exceptions pass through unchanged, and {@link #type()},
 * {@link #storeId()} and {@link #location(long)} are the wrapped store's. Thread-safe. {@link #close()} closes the
 * wrapped store; meters stay registered (their last values remain readable).
 */
public final class MeteredJobInfoStore implements JobInfoStore {

    /** Timer of store operations. */
    public static final String OPERATIONS = "jobinfo.store.operations";
    /** Distribution summary of bytes written and read. */
    public static final String BYTES = "jobinfo.store.bytes";

    /** Outcome of a call that did what was asked. */
    public static final String SUCCESS = "success";
    /** {@code create} found identical bytes already stored. */
    public static final String ALREADY_PRESENT = "already-present";
    /** {@code delete} or {@code delete-incomplete} found nothing to delete. */
    public static final String ABSENT = "absent";

    private final JobInfoStore delegate;
    private final MeterRegistry registry;
    private final String backend;
    private final String storeId;
    private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, DistributionSummary> summaries = new ConcurrentHashMap<>();

    private MeteredJobInfoStore(JobInfoStore delegate, MeterRegistry registry) {
        this.delegate = delegate;
        this.registry = registry;
        this.backend = delegate.type();
        this.storeId = delegate.storeId();
    }

    /**
     * Wraps {@code store}; a store that is already metered into the same registry is returned as it is.
     */
    public static JobInfoStore wrap(JobInfoStore store, MeterRegistry registry) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(registry, "registry");
        if (store instanceof MeteredJobInfoStore metered && metered.registry == registry) {
            return store;
        }
        return new MeteredJobInfoStore(store, registry);
    }

    /** The store this one records. */
    public JobInfoStore delegate() {
        return delegate;
    }

    /**
     * The {@code outcome} tag of a failed call: {@code not-found} ({@link BlobNotFoundException}), {@code corrupt}
     * ({@link CorruptBlobException}), {@code conflict} ({@link BlobAlreadyExistsException}), {@code outcome-unknown}
     * ({@link OutcomeUnknownException}), {@code error} (any other {@link JobInfoStoreException}) or
     * {@code unexpected} (an unchecked exception).
     */
    public static String outcomeOf(Throwable failure) {
        if (failure instanceof BlobNotFoundException) {
            return "not-found";
        }
        if (failure instanceof CorruptBlobException) {
            return "corrupt";
        }
        if (failure instanceof BlobAlreadyExistsException) {
            return "conflict";
        }
        if (failure instanceof OutcomeUnknownException) {
            return "outcome-unknown";
        }
        if (failure instanceof JobInfoStoreException) {
            return "error";
        }
        return "unexpected";
    }

    @Override
    public String type() {
        return delegate.type();
    }

    @Override
    public String storeId() {
        return delegate.storeId();
    }

    @Override
    public String location(long jobId) {
        return delegate.location(jobId);
    }

    @Override
    public CreateOutcome create(long jobId, BlobSource blob) throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            CreateOutcome outcome = delegate.create(jobId, blob);
            record("create", outcome == CreateOutcome.ALREADY_PRESENT ? ALREADY_PRESENT : SUCCESS, start);
            if (outcome == CreateOutcome.CREATED) {
                bytes("create").record(blob.length());
            }
            return outcome;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            record("create", outcomeOf(e), start);
            throw e;
        }
    }

    @Override
    public InputStream openRaw(long jobId) throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            InputStream in = delegate.openRaw(jobId);
            record("open-raw", SUCCESS, start); // unverified bytes: counted and timed, not measured
            return in;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            record("open-raw", outcomeOf(e), start);
            throw e;
        }
    }

    @Override
    public VerifiedBlob read(long jobId) throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            VerifiedBlob blob = delegate.read(jobId);
            record("read", SUCCESS, start);
            bytes("read").record(blob.payload().length);
            return blob;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            record("read", outcomeOf(e), start);
            throw e;
        }
    }

    @Override
    public long readTo(long jobId, OutputStream out) throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            long length = delegate.readTo(jobId, out);
            record("read-to", SUCCESS, start);
            bytes("read-to").record(length);
            return length;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            record("read-to", outcomeOf(e), start);
            throw e;
        }
    }

    @Override
    public boolean delete(long jobId) throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            boolean deleted = delegate.delete(jobId);
            record("delete", deleted ? SUCCESS : ABSENT, start);
            return deleted;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            record("delete", outcomeOf(e), start);
            throw e;
        }
    }

    @Override
    public List<StoredBlob> list() throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            List<StoredBlob> blobs = delegate.list();
            record("list", SUCCESS, start);
            return blobs;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            record("list", outcomeOf(e), start);
            throw e;
        }
    }

    @Override
    public boolean deleteIncomplete(StoredBlob leftover) throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            boolean deleted = delegate.deleteIncomplete(leftover);
            record("delete-incomplete", deleted ? SUCCESS : ABSENT, start);
            return deleted;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            record("delete-incomplete", outcomeOf(e), start);
            throw e;
        }
    }

    @Override
    public void close() throws JobInfoStoreException {
        delegate.close();
    }

    @Override
    public String toString() {
        return "metered " + delegate;
    }

    private void record(String operation, String outcome, long startNanos) {
        long took = System.nanoTime() - startNanos;
        timers.computeIfAbsent(operation + '\u0000' + outcome, k -> Timer.builder(OPERATIONS)
                        .description("job info store calls by backend, operation and outcome")
                        .tag("backend", backend)
                        .tag("store", storeId)
                        .tag("operation", operation)
                        .tag("outcome", outcome.toLowerCase(Locale.ROOT))
                        .register(registry))
                .record(took, TimeUnit.NANOSECONDS);
    }

    private DistributionSummary bytes(String operation) {
        return summaries.computeIfAbsent(operation, k -> DistributionSummary.builder(BYTES)
                .description("bytes written (create: envelope) and read (read: verified payload)")
                .baseUnit("bytes")
                .tag("backend", backend)
                .tag("store", storeId)
                .tag("operation", operation)
                .register(registry));
    }
}
