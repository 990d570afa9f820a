package io.jobinfo.store.service;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import com.hazelcast.map.listener.MapEvictedListener;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link JobCache} in step with the job map by listening: every change of an entry invalidates its job, a
 * cleared or evicted map and a member that left (events may have been lost with it) invalidate everything. Events are
 * the fast path only; see the cache's bounded staleness for what holds when one is lost.
 */
final class CacheInvalidator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CacheInvalidator.class);

    private final HazelcastInstance hazelcast;
    private final IMap<Long, Object> map;
    private final UUID entryListenerId;
    private final UUID membershipListenerId;

    CacheInvalidator(HazelcastInstance hazelcast, IMap<Long, Object> map, JobCache<?> cache) {
        this.hazelcast = hazelcast;
        this.map = map;
        this.entryListenerId = map.addEntryListener(new Listener(cache), false);
        this.membershipListenerId = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                // nothing lost
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                cache.invalidateAll();
            }
        });
    }

    /** Removes the listeners; never fails (an instance already down has none left). */
    @Override
    public void close() {
        try {
            map.removeEntryListener(entryListenerId);
            hazelcast.getCluster().removeMembershipListener(membershipListenerId);
        } catch (RuntimeException e) {
            LOG.debug("removing listeners on close failed (instance already down?): {}", e.toString());
        }
    }

    private static final class Listener implements EntryAddedListener<Long, Object>,
            EntryUpdatedListener<Long, Object>, EntryRemovedListener<Long, Object>, EntryEvictedListener<Long, Object>,
            EntryExpiredListener<Long, Object>, MapClearedListener, MapEvictedListener {

        private final JobCache<?> cache;

        Listener(JobCache<?> cache) {
            this.cache = cache;
        }

        @Override
        public void entryAdded(EntryEvent<Long, Object> event) {
            cache.added(event.getKey());
        }

        @Override
        public void entryUpdated(EntryEvent<Long, Object> event) {
            cache.changed(event.getKey());
        }

        @Override
        public void entryRemoved(EntryEvent<Long, Object> event) {
            cache.changed(event.getKey());
        }

        @Override
        public void entryEvicted(EntryEvent<Long, Object> event) {
            cache.changed(event.getKey());
        }

        @Override
        public void entryExpired(EntryEvent<Long, Object> event) {
            cache.changed(event.getKey());
        }

        @Override
        public void mapCleared(MapEvent event) {
            cache.invalidateAll();
        }

        @Override
        public void mapEvicted(MapEvent event) {
            cache.invalidateAll();
        }
    }
}
