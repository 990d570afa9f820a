package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.metering.MeteredJobInfoStore;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Counters of one member's drop-in, readable as a map ({@link #snapshot()}) by operators' probes and tests; store
 * operations are metered separately by the api's {@code MeteredJobInfoStore} in the service's meter registry.
 */
public final class DropInMetrics {

    final AtomicLong moved = new AtomicLong();
    final AtomicLong moveFailures = new AtomicLong();
    final AtomicLong notOffloadable = new AtomicLong();
    final AtomicLong blobsDeleted = new AtomicLong();
    final AtomicLong deleteFailures = new AtomicLong();
    final AtomicLong reads = new AtomicLong();
    final AtomicLong cacheHits = new AtomicLong();
    final AtomicLong readRetries = new AtomicLong();
    final AtomicLong readFailures = new AtomicLong();
    /** Reads whose caller stopped waiting (its bound passed) while the store had not answered. */
    final AtomicLong readTimeouts = new AtomicLong();
    final AtomicLong gcDeleted = new AtomicLong();
    final AtomicLong gcRuns = new AtomicLong();
    final AtomicLong blockedByMemberWithoutPlugin = new AtomicLong();
    final AtomicLong storeCalls = new AtomicLong();
    final AtomicLong storeCallsOnPartitionThreads = new AtomicLong();
    final AtomicLong inlineOwned = new AtomicLong();
    /** 1 while this member holds every blob delete because its view of the map may be partial, else 0. */
    final AtomicLong deletesHeld = new AtomicLong();
    /** History values (issue 27, {@code jobinfo-dropin.history}) replaced by a reference, over all history maps. */
    final AtomicLong historyMoved = new AtomicLong();
    /** History moves that failed (the value stays inline; the next sweep tries again). */
    final AtomicLong historyMoveFailures = new AtomicLong();
    /** History blobs deleted: after an expiry, a removal or a newer value, and by the gc. */
    final AtomicLong historyBlobsDeleted = new AtomicLong();
    /** Finished jobs the master removed from the history maps over {@code jobinfo-dropin.history-max-retained}. */
    final AtomicLong historyRemovedOverBound = new AtomicLong();
    private final Set<String> storeThreadKinds = ConcurrentHashMap.newKeySet();
    private volatile LongSupplier pendingMoves = () -> 0;
    private volatile LongSupplier badValues = () -> 0;

    /** Remembers the kind of a thread that called the store (at most 64 kinds are kept). */
    void recordStoreThread(String kind) {
        if (storeThreadKinds.size() < 64 || storeThreadKinds.contains(kind)) {
            storeThreadKinds.add(kind);
        }
    }

    /**
     * The kinds of thread (names with their numbers replaced by {@code #}) that have called the store on this member,
     * sorted; none of them should be {@code hz.*.partition-operation.thread-#}.
     */
    public List<String> storeThreadKinds() {
        List<String> kinds = new ArrayList<>(storeThreadKinds);
        Collections.sort(kinds);
        return kinds;
    }

    void pendingMoves(LongSupplier supplier) {
        this.pendingMoves = supplier;
    }

    void badValues(LongSupplier supplier) {
        this.badValues = supplier;
    }

    /**
     * Every counter by name: {@code moved} (values replaced by a reference), {@code moveFailures} (store writes that
     * failed and will be retried; the value stays inline meanwhile), {@code pendingMoves} (inline values waiting),
     * {@code notOffloadable}, {@code blobsDeleted}, {@code deleteFailures}, {@code reads}, {@code cacheHits},
     * {@code readRetries}, {@code readFailures}, {@code gcRuns}, {@code gcDeleted},
     * {@code blockedByMemberWithoutPlugin} (moves held back because a member without the plugin is in the cluster),
     * {@code inlineOwned} (inline values this member owned at its last sweep: jobs kept inline, for whatever reason; -1 in passive mode, which reads none),
     * {@code badValues} (job ids whose value is not SeaTunnel's {@code JobInfo}, each logged once at WARN and left alone),
     * {@code storeCalls} and {@code storeCallsOnPartitionThreads} (store calls made on a Hazelcast partition thread;
     * the design keeps it at 0, see {@link ThreadWatchedStore}); and with {@code jobinfo-dropin.history} on,
     * {@code historyMoved}, {@code historyMoveFailures} and {@code historyBlobsDeleted} (0 otherwise); with
     * {@code jobinfo-dropin.history-max-retained}, {@code historyRemovedOverBound} (finished jobs removed from the
     * history maps by the bound on the master; a removal that a later pass finishes counts again).
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("moved", moved.get());
        m.put("moveFailures", moveFailures.get());
        m.put("pendingMoves", pendingMoves.getAsLong());
        m.put("notOffloadable", notOffloadable.get());
        m.put("blobsDeleted", blobsDeleted.get());
        m.put("deleteFailures", deleteFailures.get());
        m.put("reads", reads.get());
        m.put("cacheHits", cacheHits.get());
        m.put("readRetries", readRetries.get());
        m.put("readFailures", readFailures.get());
        m.put("readTimeouts", readTimeouts.get());
        m.put("gcRuns", gcRuns.get());
        m.put("gcDeleted", gcDeleted.get());
        m.put("blockedByMemberWithoutPlugin", blockedByMemberWithoutPlugin.get());
        m.put("inlineOwned", inlineOwned.get());
        m.put("deletesHeld", deletesHeld.get());
        m.put("badValues", badValues.getAsLong());
        m.put("storeCalls", storeCalls.get());
        m.put("storeCallsOnPartitionThreads", storeCallsOnPartitionThreads.get());
        m.put("historyMoved", historyMoved.get());
        m.put("historyMoveFailures", historyMoveFailures.get());
        m.put("historyBlobsDeleted", historyBlobsDeleted.get());
        m.put("historyRemovedOverBound", historyRemovedOverBound.get());
        return m;
    }
}
