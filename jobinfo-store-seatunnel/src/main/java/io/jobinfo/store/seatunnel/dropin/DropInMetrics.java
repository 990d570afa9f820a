package io.jobinfo.store.seatunnel.dropin;

import java.util.LinkedHashMap;
import java.util.Map;
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
    final AtomicLong gcDeleted = new AtomicLong();
    final AtomicLong gcRuns = new AtomicLong();
    final AtomicLong blockedByMemberWithoutPlugin = new AtomicLong();
    private volatile LongSupplier pendingMoves = () -> 0;

    void pendingMoves(LongSupplier supplier) {
        this.pendingMoves = supplier;
    }

    /**
     * Every counter by name: {@code moved} (values replaced by a reference), {@code moveFailures} (store writes that
     * failed and will be retried; the value stays inline meanwhile), {@code pendingMoves} (inline values waiting),
     * {@code notOffloadable}, {@code blobsDeleted}, {@code deleteFailures}, {@code reads}, {@code cacheHits},
     * {@code readRetries}, {@code readFailures}, {@code gcRuns}, {@code gcDeleted},
     * {@code blockedByMemberWithoutPlugin} (moves held back because a member without the plugin is in the cluster).
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
        m.put("gcRuns", gcRuns.get());
        m.put("gcDeleted", gcDeleted.get());
        m.put("blockedByMemberWithoutPlugin", blockedByMemberWithoutPlugin.get());
        return m;
    }
}
