package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.map.MapLoader;
import com.hazelcast.map.MapStore;
import com.hazelcast.map.MapStoreFactory;

import java.util.Properties;

/**
 * The map-store factory an operator names in hazelcast.yaml in place of SeaTunnel's own
 * ({@value #SEATUNNEL_FACTORY}), with the same properties, so that SeaTunnel's IMap persistence never holds a job's
 * full bytes: the log of {@code engine_runningJobInfo} gets the reference the drop-in would put, not the job.
 *
 * <p>It creates SeaTunnel's map store (or the one named by {@value #DELEGATE_KEY}) with the very {@link Properties}
 * Hazelcast passes (SeaTunnel's keys and ours side by side; SeaTunnel ignores keys it does not know) and returns it
 * unchanged for every map but {@code engine_runningJobInfo}. For that map it returns a {@link ReferencePersistingMapStore}
 * around it: a new job still inline is written to the store first (off the partition thread, waited for at most
 * {@value #WAIT_KEY} milliseconds, default {@value #DEFAULT_WAIT_MILLIS}), and the record persisted is the job's
 * {@code JobInfo} holding the reference; on a store that fails or is slower than that, the record is the job in full,
 * as with SeaTunnel's factory. Everything else passes through.
 */
public final class DropInMapStoreFactory implements MapStoreFactory<Object, Object> {

    /** SeaTunnel 2.3.8's IMap persistence, the default delegate. */
    public static final String SEATUNNEL_FACTORY = "org.apache.seatunnel.engine.server.persistence.FileMapStoreFactory";
    /** Optional property: the class of the factory whose map stores are wrapped. */
    public static final String DELEGATE_KEY = "jobinfo.delegate-factory-class-name";
    /**
     * Optional property: how long a persist of a new job waits for its blob, in milliseconds (0 to 60000; 0 writes no
     * blob there and persists every new job in full, as SeaTunnel's factory does).
     */
    public static final String WAIT_KEY = "jobinfo.blob-wait-millis";
    static final long DEFAULT_WAIT_MILLIS = 1000;
    static final long MAX_WAIT_MILLIS = 60_000;

    @Override
    @SuppressWarnings("unchecked")
    public MapLoader<Object, Object> newMapStore(String mapName, Properties properties) {
        long waitMillis = waitMillis(properties);
        MapLoader<Object, Object> delegate = delegateFactory(properties).newMapStore(mapName, properties);
        if (!JobInfoMover.MAP.equals(mapName)) {
            return delegate;
        }
        if (!(delegate instanceof MapStore)) {
            throw new IllegalArgumentException("map-store of " + mapName + ": " + delegateName(properties)
                    + " made a " + delegate.getClass().getName() + ", which stores nothing (not a MapStore);"
                    + " name a factory of map stores in " + DELEGATE_KEY + " or remove it");
        }
        return new ReferencePersistingMapStore((MapStore<Object, Object>) delegate, waitMillis);
    }

    /** The wait bound; a bad value fails the map store's creation with a message naming the property. */
    static long waitMillis(Properties properties) {
        String value = properties.getProperty(WAIT_KEY);
        if (value == null || value.trim().isEmpty()) {
            return DEFAULT_WAIT_MILLIS;
        }
        long millis;
        try {
            millis = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            millis = -1;
        }
        if (millis < 0 || millis > MAX_WAIT_MILLIS) {
            throw new IllegalArgumentException("map-store property " + WAIT_KEY + ": '" + value + "' is not a number"
                    + " of milliseconds from 0 to " + MAX_WAIT_MILLIS + "; remove it for the default ("
                    + DEFAULT_WAIT_MILLIS + ")");
        }
        return millis;
    }

    private static String delegateName(Properties properties) {
        String name = properties.getProperty(DELEGATE_KEY);
        return name == null || name.trim().isEmpty() ? SEATUNNEL_FACTORY : name.trim();
    }

    @SuppressWarnings("unchecked")
    private static MapStoreFactory<Object, Object> delegateFactory(Properties properties) {
        String name = delegateName(properties);
        Class<?> type;
        try {
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            type = Class.forName(name, true, context != null ? context : DropInMapStoreFactory.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("map-store factory " + name + " (" + DELEGATE_KEY + ", or SeaTunnel's"
                    + " default) is not on the member's class path: put SeaTunnel's imap-storage-file and"
                    + " seatunnel-engine-server jars in lib/, or name another factory in " + DELEGATE_KEY, e);
        }
        if (!MapStoreFactory.class.isAssignableFrom(type) || type == DropInMapStoreFactory.class) {
            throw new IllegalArgumentException("map-store factory " + name + " (" + DELEGATE_KEY + ") is not a"
                    + " com.hazelcast.map.MapStoreFactory other than this one; name SeaTunnel's " + SEATUNNEL_FACTORY);
        }
        try {
            return (MapStoreFactory<Object, Object>) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("map-store factory " + name + " cannot be created (" + e + "): it needs"
                    + " a public constructor without arguments", e);
        }
    }
}
