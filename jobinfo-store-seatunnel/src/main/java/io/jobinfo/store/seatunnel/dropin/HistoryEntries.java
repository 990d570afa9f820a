package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.EntryView;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.IMap;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * One history entry as the map stores it: the value's Hazelcast Data, never deserialized (a reference would load its
 * blob, an inline value would be instantiated for nothing), and the entry's expiration time. No public API gives
 * both: the member's map proxy fetches them with its protected {@code getEntryViewInternal(Data)} (same meaning in
 * Hazelcast 5.1 through 5.7) and deserializes the value afterwards; this calls that method reflectively.
 *
 * <p>Failure: a proxy without the method fails at construction ({@link IllegalStateException} naming the class);
 * an exception of the cluster call is thrown as Hazelcast threw it.
 */
final class HistoryEntries {

    /** A stored value and when its entry expires ({@link Long#MAX_VALUE}: never). */
    static final class Stored {
        final Data value;
        final long expirationTime;

        Stored(Data value, long expirationTime) {
            this.value = value;
            this.expirationTime = expirationTime;
        }

        boolean isReference() {
            return value != null && HistoryReferenceSerializer.isReference(value.getType());
        }
    }

    private final IMap<Long, Object> map;
    private final SerializationService serialization;
    private final Method entryView;

    HistoryEntries(IMap<Long, Object> map, SerializationService serialization) {
        this.map = map;
        this.serialization = serialization;
        this.entryView = find(map.getClass());
    }

    private static Method find(Class<?> proxy) {
        for (Class<?> c = proxy; c != null; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod("getEntryViewInternal", Data.class);
                m.setAccessible(true);
                return m;
            } catch (NoSuchMethodException e) {
                // look further up
            }
        }
        throw new IllegalStateException("the Hazelcast map proxy " + proxy.getName() + " has no getEntryViewInternal"
                + "(Data): this Hazelcast version is not one the history drop-in supports (5.1 to 5.7); set"
                + " seatunnel.engine.jobinfo-dropin.history: off");
    }

    /** The entry of {@code jobId}, or null if there is none. */
    Stored read(long jobId) {
        Object view;
        try {
            view = entryView.invoke(map, serialization.toData(jobId));
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException ? (RuntimeException) cause : new IllegalStateException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("getEntryViewInternal of " + map.getName() + " refused: " + e, e);
        }
        if (view == null) {
            return null;
        }
        EntryView<?, ?> v = (EntryView<?, ?>) view;
        Object value = v.getValue();
        return new Stored(value instanceof Data ? (Data) value : serialization.toData(value), v.getExpirationTime());
    }
}
