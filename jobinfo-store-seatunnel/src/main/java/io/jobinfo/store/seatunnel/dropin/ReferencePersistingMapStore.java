package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.MapLoaderLifecycleSupport;
import com.hazelcast.map.MapStore;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * SeaTunnel's map store of {@code engine_runningJobInfo}, wrapped by {@link DropInMapStoreFactory}: a {@code store}
 * or {@code storeAll} of a {@code JobInfo} whose job is still inline (SeaTunnel's own put of a new job, which
 * Hazelcast writes through on the partition thread before the drop-in's mover has moved it) persists instead the
 * {@code JobInfo} holding the reference that {@link BlobFirstPersist} returns once the job's blob is in the store;
 * when it returns none (the store failed or was slower than the bound, the drop-in is passive or not every member
 * runs it), the job is persisted in full, as SeaTunnel's own map store does. A reference (the mover's replace) and
 * everything else pass through unchanged, and so do load, loadAll, loadAllKeys, delete and deleteAll: a loaded
 * reference is resolved by the drop-in wherever SeaTunnel deserializes it, as after the mover's replace.
 */
final class ReferencePersistingMapStore implements MapStore<Object, Object>, MapLoaderLifecycleSupport {

    private final MapStore<Object, Object> delegate;
    private final long waitMillis;
    private volatile BlobFirstPersist blobFirst;

    ReferencePersistingMapStore(MapStore<Object, Object> delegate, long waitMillis) {
        this.delegate = delegate;
        this.waitMillis = waitMillis;
    }

    @Override
    public void init(HazelcastInstance instance, Properties properties, String mapName) {
        if (delegate instanceof MapLoaderLifecycleSupport) {
            ((MapLoaderLifecycleSupport) delegate).init(instance, properties, mapName);
        }
        blobFirst = new BlobFirstPersist(instance, waitMillis);
    }

    @Override
    public void destroy() {
        BlobFirstPersist b = blobFirst;
        if (b != null) {
            b.close();
        }
        if (delegate instanceof MapLoaderLifecycleSupport) {
            ((MapLoaderLifecycleSupport) delegate).destroy();
        }
    }

    @Override
    public void store(Object key, Object value) {
        JobInfo reference = referenceFor(key, value);
        delegate.store(key, reference != null ? reference : value);
    }

    @Override
    public void storeAll(Map<Object, Object> entries) {
        BlobFirstPersist b = blobFirst;
        if (b == null) {
            delegate.storeAll(entries);
            return;
        }
        Map<Long, JobInfo> inline = new LinkedHashMap<>();
        for (Map.Entry<Object, Object> e : entries.entrySet()) {
            if (e.getKey() instanceof Long && BlobFirstPersist.isInline(e.getValue())) {
                inline.put((Long) e.getKey(), (JobInfo) e.getValue());
            }
        }
        Map<Long, JobInfo> references = b.referencesFor(inline);
        if (references.isEmpty()) {
            delegate.storeAll(entries);
            return;
        }
        Map<Object, Object> persisted = new LinkedHashMap<>(entries);
        persisted.putAll(references);
        delegate.storeAll(persisted);
    }

    /** The reference to persist in place of {@code value}, or null to persist {@code value} as it is. */
    private JobInfo referenceFor(Object key, Object value) {
        BlobFirstPersist b = blobFirst;
        if (b == null || !(key instanceof Long) || !BlobFirstPersist.isInline(value)) {
            return null;
        }
        return b.referencesFor(java.util.Collections.singletonMap((Long) key, (JobInfo) value)).get(key);
    }

    @Override
    public void delete(Object key) {
        delegate.delete(key);
    }

    @Override
    public void deleteAll(Collection<Object> keys) {
        delegate.deleteAll(keys);
    }

    @Override
    public Object load(Object key) {
        return delegate.load(key);
    }

    @Override
    public Map<Object, Object> loadAll(Collection<Object> keys) {
        return delegate.loadAll(keys);
    }

    @Override
    public Iterable<Object> loadAllKeys() {
        return delegate.loadAllKeys();
    }
}
