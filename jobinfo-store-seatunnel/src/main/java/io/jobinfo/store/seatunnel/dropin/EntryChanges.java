package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;

/**
 * A map listener that sees two kinds of change of an entry: it was written (added or updated) or it was removed.
 * Hazelcast subscribes a listener to the event types whose interfaces it implements, so the kinds of ending are the
 * subclass's choice: this class listens to explicit removals only; {@link WithExpiry} to expiry and eviction too.
 * Both methods run on Hazelcast's event threads and must not block.
 *
 * @param <V> the map's value type
 */
abstract class EntryChanges<V> implements EntryAddedListener<Long, V>, EntryUpdatedListener<Long, V>,
        EntryRemovedListener<Long, V> {

    /** The entry of {@code event.getKey()} was added or updated. */
    abstract void written(EntryEvent<Long, V> event);

    /** The entry of {@code event.getKey()} is gone (removed, or with {@link WithExpiry} expired or evicted). */
    abstract void gone(EntryEvent<Long, V> event);

    @Override
    public final void entryAdded(EntryEvent<Long, V> event) {
        written(event);
    }

    @Override
    public final void entryUpdated(EntryEvent<Long, V> event) {
        written(event);
    }

    @Override
    public final void entryRemoved(EntryEvent<Long, V> event) {
        gone(event);
    }

    /** Also listens to expiry and eviction, both of which end an entry as a removal does. */
    abstract static class WithExpiry<V> extends EntryChanges<V> implements EntryExpiredListener<Long, V>,
            EntryEvictedListener<Long, V> {

        @Override
        public final void entryExpired(EntryEvent<Long, V> event) {
            gone(event);
        }

        @Override
        public final void entryEvicted(EntryEvent<Long, V> event) {
            gone(event);
        }
    }
}
