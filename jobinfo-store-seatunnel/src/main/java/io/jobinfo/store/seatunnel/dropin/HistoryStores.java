package io.jobinfo.store.seatunnel.dropin;

import com.github.benmanes.caffeine.cache.Cache;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.logging.ILogger;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.metering.MeteredJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stores, resolvers and movers of the history maps a member's {@link DropInSettings#historyMaps()} names: one
 * store per map over its sub-namespace ({@link HistoryMaps#subNamespace}; same type and plugin-config as the
 * running jobs' store, its own store id, claimed by the cluster like the main namespace), each with a resolver of its
 * own; the three resolvers share one payload cache, bounded by {@link DropInSettings#historyCacheMaxBytes()}.
 */
final class HistoryStores {

    private final Map<String, JobInfoStore> stores = new LinkedHashMap<>();
    private final Map<String, JobInfoResolver> resolversById = new LinkedHashMap<>();
    private final Map<String, JobInfoResolver> resolversByMap = new LinkedHashMap<>();
    /** The started movers by map; written by the start thread only ({@link WorkerStart}), read at close. */
    private final Map<String, HistoryMover> movers = new java.util.concurrent.ConcurrentHashMap<>();
    /** Set first by {@link #close}: a mover that {@link #start} starts after it is stopped again at once. */
    private volatile boolean closed;
    /** The member's counters, which the movers count their moves and deletes in. */
    private DropInMetrics metrics;

    private HistoryStores() {
    }

    /**
     * Opens and claims the history stores.
     *
     * @throws DropInRefusedException a store cannot be opened or belongs to another cluster
     */
    static HistoryStores open(DropInSettings settings, String clusterName, MeterRegistry meters, DropInMetrics metrics,
                              ILogger logger) {
        HistoryStores h = new HistoryStores();
        h.metrics = metrics;
        JobInfoStorageConfig main = settings.storage();
        // one bound for the three maps' values (history-cache-max-bytes), not one cache of cache.max-bytes each
        Cache<JobInfoResolver.PayloadKey, JobInfoResolver.CachedPayload> cache = JobInfoResolver.sharedCache(
                settings.historyCacheMaxBytes(), main.cache());
        for (String map : settings.historyMaps()) {
            JobInfoStorageConfig sub = HistoryMaps.storageOf(main, map);
            JobInfoStore store;
            try {
                store = new ThreadWatchedStore(MeteredJobInfoStore.open(sub, meters), metrics, logger);
                h.stores.put(map, store);
                NamespaceClaim.claim(store, clusterName);
            } catch (JobInfoStoreException | RuntimeException e) {
                h.close();
                throw new DropInRefusedException("the jobinfo-store drop-in cannot open the store of " + map + " ("
                        + sub.namespace() + ", seatunnel.engine.jobinfo-dropin.history from " + settings.source()
                        + "): " + e.getMessage());
            }
            JobInfoResolver resolver = new JobInfoResolver(store, cache, main.cache().maxEntryBytes(),
                    settings.readTimeoutMillis(),
                    settings.operationThreadWaitMillis(), metrics, HistoryMover::checkPayload, "put the blob back from"
                    + " a backup, or remove the job's entry from " + map + " (it expires with"
                    + " history-job-expire-minutes anyway)");
            h.resolversById.put(store.storeId(), resolver);
            h.resolversByMap.put(map, resolver);
        }
        return h;
    }

    /** The resolver of the history store {@code storeId}, or null. */
    JobInfoResolver resolver(String storeId) {
        return resolversById.get(storeId);
    }

    /** The resolver of history map {@code map}'s store, or null if this member keeps no history of it. */
    JobInfoResolver resolverOfMap(String map) {
        return resolversByMap.get(map);
    }

    /**
     * Starts a mover per map, once the member has started; {@code everyMemberHasThePlugin} is the running-job mover's
     * cached check ({@link JobInfoMover#everyMemberHasThePlugin()}). After {@link #close()}, or racing it, it leaves no
     * mover running: close stops those it sees, this stops those started after close began.
     */
    void start(HazelcastInstance instance, SerializationService serialization, DropInSettings settings, ILogger logger,
               java.util.function.BooleanSupplier everyMemberHasThePlugin) {
        for (Map.Entry<String, JobInfoStore> e : stores.entrySet()) {
            if (closed) {
                return;
            }
            if (movers.containsKey(e.getKey())) {
                continue; // started by an earlier attempt
            }
            HistoryMover m = new HistoryMover(instance, serialization, e.getKey(), e.getValue(),
                    resolversByMap.get(e.getKey()), settings, metrics, logger, everyMemberHasThePlugin);
            try {
                m.start();
            } catch (RuntimeException failed) {
                m.stop();
                throw failed;
            }
            movers.put(e.getKey(), m);
            if (closed) {
                m.stop(); // close may have gone over the movers before this one was in
                return;
            }
        }
    }

    /** How many of the movers started here still run (see {@link HistoryMover#running()}). */
    long runningMovers() {
        return movers.values().stream().filter(HistoryMover::running).count();
    }

    void close() {
        closed = true;
        for (HistoryMover m : movers.values()) {
            m.stop();
        }
        for (JobInfoResolver r : resolversById.values()) {
            r.close();
        }
        for (JobInfoStore s : stores.values()) {
            try {
                s.close();
            } catch (JobInfoStoreException | RuntimeException ignored) {
                // stopping
            }
        }
    }
}
