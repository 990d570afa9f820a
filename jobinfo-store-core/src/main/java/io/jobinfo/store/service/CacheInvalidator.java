package io.jobinfo.store.service;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryAdapter;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
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

    /** A job added is not cached yet; any other change of an entry, or of the whole map, makes cached jobs stale. */
    private static final class Listener extends EntryAdapter<Long, Object> {

        private final JobCache<?> cache;

        Listener(JobCache<?> cache) {
            this.cache = cache;
        }

        @Override
        public void entryAdded(EntryEvent<Long, Object> event) {
            cache.added(event.getKey());
        }

        /** Updated, removed, evicted or expired. */
        @Override
        public void onEntryEvent(EntryEvent<Long, Object> event) {
            cache.changed(event.getKey());
        }

        /** Cleared or evicted. */
        @Override
        public void onMapEvent(MapEvent event) {
            cache.invalidateAll();
        }
    }
}
