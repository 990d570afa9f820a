package io.jobinfo.store.service;

import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.spi.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A real store with its {@link #read} calls counted; the first read can be held until a condition holds (so that a
 * test can let concurrent readers pile up behind it). Everything else passes straight through.
 */
final class ReadCountingStore implements JobInfoStore {

    private final JobInfoStore delegate;
    private final AtomicInteger reads = new AtomicInteger();
    private volatile BooleanSupplier holdFirstReadUntil = () -> true;
    private volatile long holdMillis;

    ReadCountingStore(JobInfoStore delegate) {
        this.delegate = delegate;
    }

    int reads() {
        return reads.get();
    }

    /** The next first read waits until {@code condition} holds or {@code maxMillis} passed. */
    void holdFirstRead(BooleanSupplier condition, long maxMillis) {
        reads.set(0);
        this.holdFirstReadUntil = condition;
        this.holdMillis = maxMillis;
    }

    @Override
    public VerifiedBlob read(long jobId) throws JobInfoStoreException {
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
        return delegate.read(jobId);
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
        return delegate.create(jobId, blob);
    }

    @Override
    public InputStream openRaw(long jobId) throws JobInfoStoreException {
        return delegate.openRaw(jobId);
    }

    @Override
    public long readTo(long jobId, OutputStream out) throws JobInfoStoreException {
        return delegate.readTo(jobId, out);
    }

    @Override
    public boolean delete(long jobId) throws JobInfoStoreException {
        return delegate.delete(jobId);
    }

    @Override
    public List<StoredBlob> list() throws JobInfoStoreException {
        return delegate.list();
    }

    @Override
    public boolean deleteIncomplete(StoredBlob leftover) throws JobInfoStoreException {
        return delegate.deleteIncomplete(leftover);
    }

    @Override
    public void close() throws JobInfoStoreException {
        delegate.close();
    }
}
