package io.jobinfo.store.service;

import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A real store with its {@link #read} calls counted (not those of the namespace claim, which a registry reads when
 * it is built); the first read can be held until a condition holds (so that a
 * test can let concurrent readers pile up behind it). Everything else passes straight through.
 */
final class ReadCountingStore extends ForwardingJobInfoStore {

    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicInteger listedEntries = new AtomicInteger();
    private final AtomicInteger wholeListings = new AtomicInteger();
    private volatile BooleanSupplier holdFirstReadUntil = () -> true;
    private volatile long holdMillis;

    ReadCountingStore(JobInfoStore delegate) {
        super(delegate);
    }

    int reads() {
        return reads.get();
    }

    /** How many entries {@link #listUntil} handed to its visitors. */
    int listedEntries() {
        return listedEntries.get();
    }

    /** How many times {@link #list()} was called. */
    int wholeListings() {
        return wholeListings.get();
    }

    @Override
    public List<StoredBlob> list() throws JobInfoStoreException {
        wholeListings.incrementAndGet();
        return delegate.list();
    }

    @Override
    public void listUntil(Predicate<? super StoredBlob> visitor) throws JobInfoStoreException {
        delegate.listUntil(b -> {
            listedEntries.incrementAndGet();
            return visitor.test(b);
        });
    }

    /** The next first read waits until {@code condition} holds or {@code maxMillis} passed. */
    void holdFirstRead(BooleanSupplier condition, long maxMillis) {
        reads.set(0);
        this.holdFirstReadUntil = condition;
        this.holdMillis = maxMillis;
    }

    @Override
    public VerifiedBlob read(long jobId) throws JobInfoStoreException {
        if (!io.jobinfo.store.lifecycle.NamespaceClaim.isClaim(jobId)) { // a registry's build reads the claim
            countAndMaybeHold();
        }
        return delegate.read(jobId);
    }

    @Override
    public VerifiedBlob read(long jobId, ReadVerification level) throws JobInfoStoreException {
        if (!io.jobinfo.store.lifecycle.NamespaceClaim.isClaim(jobId)) {
            countAndMaybeHold();
        }
        return delegate.read(jobId, level);
    }

    private void countAndMaybeHold() {
        if (reads.incrementAndGet() == 1) {
            long deadline = System.currentTimeMillis() + holdMillis;
            while (!holdFirstReadUntil.getAsBoolean() && System.currentTimeMillis() < deadline) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }
}
