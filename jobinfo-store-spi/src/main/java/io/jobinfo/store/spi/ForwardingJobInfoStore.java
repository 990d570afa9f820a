package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.VerifiedBlob;
import java.io.InputStream;
import java.util.List;
import java.util.function.Predicate;

/**
 * A store that hands every call to another one, for decorators that change one or two calls (count them, pause them,
 * meter them) and pass the rest through. Every method of {@link JobInfoStore} is forwarded, the default ones included
 * ({@link #read(long, ReadVerification)}, {@link #suggestedReadParallelism()}), so a decorator never silently falls
 * back to an interface default the store it wraps overrides. Failures are the delegate's, unchanged: this class adds
 * no behaviour, no state and no exception of its own (its {@link #beforeCall} hook does nothing).
 */
public abstract class ForwardingJobInfoStore implements JobInfoStore {

    /** The store every call is handed to. */
    protected final JobInfoStore delegate;

    protected ForwardingJobInfoStore(JobInfoStore delegate) {
        if (delegate == null) {
            throw new IllegalArgumentException("a forwarding store needs the store to forward to, got null");
        }
        this.delegate = delegate;
    }

    /**
     * Called on the caller's thread before each call that reaches the stored data, with its name: {@code create},
     * {@code openRaw}, {@code read} (both), {@code delete}, {@code list} (and {@code listUntil}),
     * {@code deleteIncomplete}. Does nothing here; a decorator that watches every such call alike overrides it.
     */
    protected void beforeCall(String operation) {
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
    public Location location(long jobId) {
        return delegate.location(jobId);
    }

    @Override
    public CreateOutcome create(long jobId, BlobSource blob) throws JobInfoStoreException {
        beforeCall("create");
        return delegate.create(jobId, blob);
    }

    @Override
    public InputStream openRaw(long jobId) throws JobInfoStoreException {
        beforeCall("openRaw");
        return delegate.openRaw(jobId);
    }

    @Override
    public VerifiedBlob read(long jobId) throws JobInfoStoreException {
        beforeCall("read");
        return delegate.read(jobId);
    }

    @Override
    public VerifiedBlob read(long jobId, ReadVerification level) throws JobInfoStoreException {
        beforeCall("read");
        return delegate.read(jobId, level);
    }

    @Override
    public int suggestedReadParallelism() {
        return delegate.suggestedReadParallelism();
    }

    @Override
    public boolean delete(long jobId) throws JobInfoStoreException {
        beforeCall("delete");
        return delegate.delete(jobId);
    }

    @Override
    public List<StoredBlob> list() throws JobInfoStoreException {
        beforeCall("list");
        return delegate.list();
    }

    @Override
    public void listUntil(Predicate<? super StoredBlob> visitor) throws JobInfoStoreException {
        beforeCall("list");
        delegate.listUntil(visitor);
    }

    @Override
    public boolean deleteIncomplete(StoredBlob leftover) throws JobInfoStoreException {
        beforeCall("deleteIncomplete");
        return delegate.deleteIncomplete(leftover);
    }

    @Override
    public void close() throws JobInfoStoreException {
        delegate.close();
    }
}
