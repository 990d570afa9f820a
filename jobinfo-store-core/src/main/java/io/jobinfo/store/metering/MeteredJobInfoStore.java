package io.jobinfo.store.metering;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoredBlob;

import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.envelope.BlobSource;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@link JobInfoStore} that records every operation of the store it wraps in a Micrometer {@link MeterRegistry}:
 *
 * <ul>
 *   <li>{@value #OPERATIONS}, a {@link Timer} per {@code backend} (the store's type), {@code store} (its store id),
 *   {@code operation} ({@code create}, {@code read}, {@code open-raw}, {@code delete},
 *   {@code list}, {@code delete-incomplete}) and {@code outcome}: its count is the number of calls, its total time
 *   their latency, and the outcome tells successes from errors ({@link #outcomeOf}).</li>
 *   <li>{@value #BYTES}, a {@link DistributionSummary} (base unit bytes) per {@code backend}, {@code store} and
 *   {@code operation} ({@code create}: envelope bytes written; {@code read}: payload bytes
 *   returned after verification).</li>
 * </ul>
 *
 * <p>The decorator changes no behaviour: results and exceptions pass through unchanged, and the calls it does not
 * meter ({@link #type()}, {@link #storeId()}, {@link #location(long)}, {@link #suggestedReadParallelism()}) are
 * forwarded as they are ({@link ForwardingJobInfoStore}). Thread-safe. {@link #close()} closes the
 * wrapped store; meters stay registered (their last values remain readable).
 */
public final class MeteredJobInfoStore extends ForwardingJobInfoStore {

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

    private final MeterRegistry registry;
    private final String backend;
    private final String storeId;
    private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, DistributionSummary> summaries = new ConcurrentHashMap<>();

    private MeteredJobInfoStore(JobInfoStore delegate, MeterRegistry registry) {
        super(delegate);
        this.registry = registry;
        this.backend = delegate.type();
        this.storeId = delegate.storeId();
    }

    /**
     * Opens the store of {@code config} ({@link JobInfoStores#open(JobInfoStorageConfig)}) and records every store
     * operation in {@code meterRegistry} (meters {@value #OPERATIONS} and {@value #BYTES}, tagged with the backend
     * type).
     *
     * @throws JobInfoStoreException as {@link JobInfoStores#open(JobInfoStorageConfig)}
     */
    public static JobInfoStore open(JobInfoStorageConfig config, MeterRegistry meterRegistry)
            throws JobInfoStoreException {
        return wrap(JobInfoStores.open(config), meterRegistry);
    }

    /** Like {@link JobInfoStores#open(Map)}, with metrics as in {@link #open(JobInfoStorageConfig, MeterRegistry)}. */
    public static JobInfoStore open(java.util.Map<?, ?> section, MeterRegistry meterRegistry)
            throws JobInfoStoreException {
        return open(JobInfoStores.checked(section), meterRegistry);
    }

    /**
     * Wraps {@code store}; a store that is already metered into the same registry is returned as it is.
     */
    public static JobInfoStore wrap(JobInfoStore store, MeterRegistry registry) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(registry, "registry");
        if (store instanceof MeteredJobInfoStore && ((MeteredJobInfoStore) store).registry == registry) {
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
    public CreateOutcome create(long jobId, BlobSource blob) throws JobInfoStoreException {
        return timed("create", () -> delegate.create(jobId, blob),
                outcome -> outcome == CreateOutcome.ALREADY_PRESENT ? ALREADY_PRESENT : SUCCESS,
                outcome -> outcome == CreateOutcome.CREATED ? blob.length() : -1);
    }

    @Override
    public InputStream openRaw(long jobId) throws JobInfoStoreException {
        // unverified bytes: counted and timed, not measured
        return timed("open-raw", () -> delegate.openRaw(jobId), in -> SUCCESS, in -> -1);
    }

    @Override
    public VerifiedBlob read(long jobId) throws JobInfoStoreException {
        return timed("read", () -> delegate.read(jobId), blob -> SUCCESS, blob -> blob.payload().length);
    }

    @Override
    public VerifiedBlob read(long jobId, io.jobinfo.store.envelope.ReadVerification level)
            throws JobInfoStoreException {
        return timed("read", () -> delegate.read(jobId, level), blob -> SUCCESS, blob -> blob.payload().length);
    }

    @Override
    public boolean delete(long jobId) throws JobInfoStoreException {
        return timed("delete", () -> delegate.delete(jobId), deleted -> deleted ? SUCCESS : ABSENT, deleted -> -1);
    }

    @Override
    public List<StoredBlob> list() throws JobInfoStoreException {
        return timed("list", delegate::list, blobs -> SUCCESS, blobs -> -1);
    }

    /** Timed as {@code list}, from the first request to the visitor's last answer. */
    @Override
    public void listUntil(Predicate<? super StoredBlob> visitor) throws JobInfoStoreException {
        timed("list", () -> {
            delegate.listUntil(visitor);
            return null;
        }, none -> SUCCESS, none -> -1);
    }

    @Override
    public boolean deleteIncomplete(StoredBlob leftover) throws JobInfoStoreException {
        return timed("delete-incomplete", () -> delegate.deleteIncomplete(leftover),
                deleted -> deleted ? SUCCESS : ABSENT, deleted -> -1);
    }

    /** One store call. */
    @FunctionalInterface
    private interface StoreCall<R> {
        R call() throws JobInfoStoreException;
    }

    /**
     * Runs {@code call}, timing it under {@code operation} with the outcome {@code outcome} names (or the failure's),
     * and records {@code bytes} of a successful call unless negative.
     */
    private <R> R timed(String operation, StoreCall<R> call, Function<R, String> outcome, ToLongFunction<R> bytes)
            throws JobInfoStoreException {
        long start = System.nanoTime();
        R result;
        try {
            result = call.call();
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            record(operation, outcomeOf(e), start);
            throw e;
        }
        record(operation, outcome.apply(result), start);
        long n = bytes.applyAsLong(result);
        if (n >= 0) {
            bytes(operation).record(n);
        }
        return result;
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
