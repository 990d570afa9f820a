package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.logging.ILogger;
import com.hazelcast.map.IMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The count bound on SeaTunnel's finished-job history, {@code seatunnel.engine.jobinfo-dropin.history-max-retained:
 * N} (as Flink's {@code jobstore.max-capacity}): on the master, every sweep interval, when one of the three history
 * maps ({@link HistoryMaps}) holds more than N jobs, as many of the oldest jobs of the three maps as it holds too many
 * (by their entry's expiration time, which SeaTunnel sets to the job's end plus {@code history-job-expire-minutes})
 * are removed from all three maps, so that at most N are left in each (a job missing from the largest map frees
 * nothing there: the next pass removes the next oldest).
 * <ul>
 *   <li><b>One job as one.</b> A job's entries go in the order {@value HistoryMaps#STATE}, {@value HistoryMaps#METRICS},
 *   {@value HistoryMaps#DAG}: SeaTunnel's REST reads a finished job from its state first (finished-jobs lists the
 *   state map, job-info looks the state up), so once the state is gone no answer shows the job, and never half of it.
 *   A removal stopped half-way (a crash, a value that changed) is finished by a later pass: the job is still the
 *   oldest.</li>
 *   <li><b>Only the value judged.</b> Each entry is removed by compare-and-remove of the Data it was judged by, so a
 *   new history under a reused id, or a move that replaced the value meanwhile, keeps the entry (a later pass looks
 *   again). Entries without an expiry (SeaTunnel's empty metrics put before its merge, at a job's end) are never
 *   removed.</li>
 *   <li><b>Blobs.</b> A removal is an ordinary {@code remove} event: with {@code jobinfo-dropin.history} on, the
 *   owner's {@link HistoryMover} deletes the removed reference's blob as it does after an expiry.</li>
 *   <li><b>With {@code history: off}</b> the bound holds too, on SeaTunnel's inline values: removing a finished job's
 *   history early is what a shorter {@code history-job-expire-minutes} does, which SeaTunnel handles (an id leaves
 *   history; REST no longer lists the job).</li>
 * </ul>
 * The master keeps each job's expiration time once read (an entry read per new job and per candidate, never the
 * whole map again): a new master reads them all once. Nothing runs while the master runs no drop-in.
 */
final class HistoryRetention {

    /** The key under {@code seatunnel.engine.jobinfo-dropin}. */
    static final String KEY = "history-max-retained";
    /** No bound: the default. */
    static final long UNBOUNDED = Long.MAX_VALUE;
    /** The largest bound accepted. */
    static final long MAX = 100_000_000L;
    /** The maps in the order a job's entries are removed (the state first: REST reads a job from it). */
    static final List<String> ORDER = Collections.unmodifiableList(Arrays.asList(HistoryMaps.STATE,
            HistoryMaps.METRICS, HistoryMaps.DAG));

    private final HazelcastInstance instance;
    private final long maxRetained;
    private final long intervalMillis;
    private final DropInMetrics metrics;
    private final ILogger logger;
    private final Map<String, IMap<Long, Object>> maps = new LinkedHashMap<>();
    private final Map<String, HistoryEntries> entries = new LinkedHashMap<>();
    /** Expiration time of each job the master has read (job id to epoch millis); cleared when not master. */
    private final Map<Long, Long> expiries = new HashMap<>();
    private final ScheduledExecutorService worker;

    HistoryRetention(HazelcastInstance instance, SerializationService serialization, DropInSettings settings,
                     DropInMetrics metrics, ILogger logger) {
        this.instance = instance;
        this.maxRetained = settings.historyMaxRetained();
        this.intervalMillis = settings.sweepIntervalMillis();
        this.metrics = metrics;
        this.logger = logger;
        for (String name : ORDER) {
            IMap<Long, Object> map = instance.getMap(name);
            maps.put(name, map);
            entries.put(name, new HistoryEntries(map, serialization));
        }
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jobinfo-dropin-history-retention");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The bound under {@code section}'s {@value #KEY}: {@link #UNBOUNDED} when absent; a problem (and unbounded) for
     * a value that is no whole number from 1 to {@value #MAX}.
     */
    static long parse(Map<?, ?> section, String name, List<String> problems) {
        Object value = section.get(KEY);
        if (value == null) {
            return UNBOUNDED;
        }
        String v = String.valueOf(value).trim();
        long n;
        try {
            n = Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > MAX) {
            problems.add(name + ": '" + value + "' is not a number of finished jobs; give a whole number from 1 to "
                    + MAX + " (the master then keeps at most that many finished jobs in SeaTunnel's history maps,"
                    + " removing the oldest), or leave the key out for no bound (history-job-expire-minutes alone"
                    + " decides)");
            return UNBOUNDED;
        }
        return n;
    }

    void start() {
        worker.scheduleWithFixedDelay(this::pass, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    void stop() {
        worker.shutdownNow();
    }

    private boolean master() {
        return instance.getCluster().getMembers().iterator().next().localMember();
    }

    private void pass() {
        try {
            if (!master()) {
                expiries.clear();
                return;
            }
            long largest = 0;
            for (IMap<Long, Object> map : maps.values()) {
                largest = Math.max(largest, map.size());
            }
            long excess = largest - maxRetained;
            if (excess <= 0) {
                return; // within the bound: no key is listed
            }
            Set<Long> jobs = new LinkedHashSet<>();
            for (IMap<Long, Object> map : maps.values()) {
                jobs.addAll(map.keySet());
            }
            expiries.keySet().retainAll(jobs);
            for (Long jobId : jobs) {
                if (!expiries.containsKey(jobId)) {
                    long expiry = expiryOf(jobId);
                    if (expiry != Long.MAX_VALUE) {
                        expiries.put(jobId, expiry);
                    }
                }
            }
            List<Map.Entry<Long, Long>> oldest = new ArrayList<>(expiries.entrySet());
            oldest.sort((a, b) -> a.getValue().equals(b.getValue()) ? Long.compare(a.getKey(), b.getKey())
                    : Long.compare(a.getValue(), b.getValue()));
            int removed = 0;
            for (int i = 0; i < oldest.size() && i < excess; i++) {
                if (remove(oldest.get(i).getKey(), oldest.get(i).getValue())) {
                    removed++;
                }
            }
            if (removed > 0) {
                logger.fine("history: " + jobs.size() + " finished jobs retained, more than " + KEY + " "
                        + maxRetained + ": removed the " + removed + " oldest");
            }
        } catch (RuntimeException e) {
            logger.warning("history retention (" + KEY + " " + maxRetained + ") failed, next pass in "
                    + intervalMillis + " ms: " + e);
        }
    }

    /** The expiration time of the job's first entry that has one, in {@link #ORDER}; MAX_VALUE if none has. */
    private long expiryOf(long jobId) {
        for (HistoryEntries e : entries.values()) {
            HistoryEntries.Stored s = e.read(jobId);
            if (s != null && s.expirationTime != Long.MAX_VALUE) {
                return s.expirationTime;
            }
        }
        return Long.MAX_VALUE;
    }

    /**
     * Removes the job's entries in {@link #ORDER}, each only if it still holds the value read here, unless the job's
     * expiration time is no longer {@code expected} (a new history under the id: kept, looked at again next pass).
     *
     * @return whether an entry was removed
     */
    private boolean remove(long jobId, long expected) {
        long now = expiryOf(jobId);
        if (now != expected) {
            if (now == Long.MAX_VALUE) {
                expiries.remove(jobId);
            } else {
                expiries.put(jobId, now);
            }
            return false;
        }
        boolean any = false;
        for (Map.Entry<String, HistoryEntries> e : entries.entrySet()) {
            HistoryEntries.Stored s = e.getValue().read(jobId);
            if (s != null && s.expirationTime != Long.MAX_VALUE && maps.get(e.getKey()).remove(jobId, s.value)) {
                any = true;
            }
        }
        if (any) {
            metrics.historyRemovedOverBound.incrementAndGet();
        }
        return any;
    }
}
