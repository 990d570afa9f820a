package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.logging.ILogger;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.SealedEnvelope;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes the blob of a job that SeaTunnel's persistence is about to log in full, so that the log gets the reference
 * instead ({@link ReferencePersistingMapStore}). The map store runs on the partition thread of SeaTunnel's put, inside
 * the put: the store write runs on threads of its own ({@code jobinfo-dropin-persist-*}, so the drop-in still never
 * calls its store on a partition thread) and the partition thread waits for it at most the bound
 * ({@link DropInMapStoreFactory#WAIT_KEY}). The blob is sealed exactly as the mover seals it (same codec, same
 * initialization timestamp), so the mover's own write of the job a moment later finds the same bytes (a no-op by
 * write-once) and its replace by the same reference is persisted as one more small record.
 *
 * <p>No reference is returned, and the job is persisted in full, as by SeaTunnel's own map store, when: the drop-in
 * is passive or has not started, a member without it is in the cluster (the mover moves nothing then either: such a
 * member could not read a reference after a full restart), the job is not one the drop-in can store, the store
 * refuses the blob or already holds other bytes under the id (an earlier job with this id, which the mover replaces),
 * its outcome is unknown, or the write takes longer than the bound. So an acknowledged job is always in the log: as
 * a reference whose blob was written before it, or in full. A blob written after its bound stays for the mover (same
 * bytes) or, if the job ends first, for the gc.
 *
 * <p>No Hazelcast call is made while a partition thread waits: the members' drop-in modes are read every second on a
 * thread of this class, and a verdict older than a few seconds, or about another set of members, counts as "no".
 */
final class BlobFirstPersist {

    private static final long VERDICT_REFRESH_MILLIS = 1000;
    private static final long VERDICT_MAX_AGE_MILLIS = 5000;
    private static final int WRITERS = 2;
    private static final int QUEUED = 64;

    private final HazelcastInstance instance;
    private final SerializationService serialization;
    private final long waitMillis;
    private final ILogger logger;
    private final ThreadPoolExecutor writers;
    private final ScheduledExecutorService checker;
    private volatile Verdict verdict = new Verdict(false, Collections.<Member>emptySet(), 0, "not checked yet");
    private volatile long lastWarning;

    /** Whether the drop-in would move jobs now, for which members, and when that was read. */
    private static final class Verdict {
        final boolean moves;
        final Set<Member> members;
        final long at;
        final String why;

        Verdict(boolean moves, Set<Member> members, long at, String why) {
            this.moves = moves;
            this.members = members;
            this.at = at;
            this.why = why;
        }
    }

    BlobFirstPersist(HazelcastInstance instance, long waitMillis) {
        this.instance = instance;
        this.serialization = ((SerializationServiceSupport) instance).getSerializationService();
        this.waitMillis = waitMillis;
        this.logger = instance.getLoggingService().getLogger(BlobFirstPersist.class);
        this.writers = new ThreadPoolExecutor(WRITERS, WRITERS, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<Runnable>(QUEUED), daemons("jobinfo-dropin-persist-"));
        ScheduledThreadPoolExecutor c = new ScheduledThreadPoolExecutor(1, daemons("jobinfo-dropin-persist-check-"));
        c.scheduleWithFixedDelay(this::refreshVerdict, 0, VERDICT_REFRESH_MILLIS, TimeUnit.MILLISECONDS);
        this.checker = c;
    }

    private static java.util.concurrent.ThreadFactory daemons(final String prefix) {
        final AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Whether {@code value} is SeaTunnel's {@code JobInfo} with the job inline (not a reference). */
    static boolean isInline(Object value) {
        if (!(value instanceof JobInfo)) {
            return false;
        }
        Data job = ((JobInfo) value).getJobImmutableInformation();
        return job != null && !JobInfoMover.isReference(job);
    }

    /**
     * The reference {@code JobInfo} to persist for each inline job whose blob was stored within the bound (one
     * deadline for all); the jobs missing from the answer are persisted as they are.
     */
    Map<Long, JobInfo> referencesFor(Map<Long, JobInfo> inline) {
        if (inline.isEmpty() || waitMillis == 0) {
            return Collections.emptyMap(); // 0: the operator asked for SeaTunnel's own records
        }
        final DropInService service = DropInService.forInstance(instance);
        String no = refusal(service);
        if (no != null) {
            warn(inline.keySet() + " persisted in full: " + no);
            return Collections.emptyMap();
        }
        Map<Long, Future<JobInfo>> writes = new LinkedHashMap<>();
        for (final Map.Entry<Long, JobInfo> e : inline.entrySet()) {
            try {
                writes.put(e.getKey(), writers.submit(new Callable<JobInfo>() {
                    @Override
                    public JobInfo call() throws JobInfoStoreException {
                        return write(service.store(), e.getKey(), e.getValue());
                    }
                }));
            } catch (RejectedExecutionException busy) {
                warn("job " + e.getKey() + " persisted in full: " + QUEUED + " blob writes already wait");
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        Map<Long, JobInfo> out = new LinkedHashMap<>();
        for (Map.Entry<Long, Future<JobInfo>> w : writes.entrySet()) {
            try {
                JobInfo reference = w.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (reference != null) {
                    out.put(w.getKey(), reference);
                }
            } catch (TimeoutException slow) {
                w.getValue().cancel(false); // a write under way finishes for the mover; a queued one never runs
                warn("job " + w.getKey() + " persisted in full: its blob was not stored within " + waitMillis
                        + " ms (" + DropInMapStoreFactory.WAIT_KEY + ")");
            } catch (ExecutionException failed) {
                warn("job " + w.getKey() + " persisted in full: its blob could not be stored ("
                        + failed.getCause() + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return out;
    }

    /** On a writer thread: the blob, sealed as the mover seals it, then the reference; null if not offloadable. */
    private JobInfo write(JobInfoStore store, long jobId, JobInfo inline) throws JobInfoStoreException {
        EncodedPayload payload;
        try {
            payload = new SeaTunnelJobDataCodec().encode(inline.getJobImmutableInformation(), EnvelopeHeader.LENGTH);
        } catch (IllegalArgumentException notOffloadable) {
            return null; // the mover logs and counts it
        }
        SealedEnvelope blob = BlobEnvelope.seal(jobId, SeaTunnelJobDataCodec.ID, inline.getInitializationTimestamp(),
                payload);
        store.create(jobId, blob); // CREATED, or ALREADY_PRESENT: these very bytes; other bytes throw
        JobInfoPointer pointer = new JobInfoPointer(jobId, blob.header().initializationTimestamp(), store.storeId(),
                blob.header());
        return new JobInfo(inline.getInitializationTimestamp(), serialization.toData(new JobInfoReference(pointer)));
    }

    /** Why no reference may be persisted now, or null. */
    private String refusal(DropInService service) {
        if (service == null || !service.active()) {
            return "the jobinfo-store drop-in has not started on this member";
        }
        if (service.settings().mode() != DropInSettings.Mode.ACTIVE) {
            return "the drop-in is passive (jobs stay inline)";
        }
        Verdict v = verdict;
        if (!v.moves) {
            return v.why;
        }
        if (System.currentTimeMillis() - v.at > VERDICT_MAX_AGE_MILLIS) {
            return "the members' drop-in modes were last read " + (System.currentTimeMillis() - v.at) + " ms ago";
        }
        if (!v.members.equals(instance.getCluster().getMembers())) {
            return "the members changed since their drop-in modes were read";
        }
        return null;
    }

    private void refreshVerdict() {
        try {
            Set<Member> members = instance.getCluster().getMembers();
            for (Map.Entry<Member, String> e : DropInMembers.modes(instance).entrySet()) {
                if (e.getValue() == null) {
                    verdict = new Verdict(false, members, System.currentTimeMillis(), "member " + e.getKey()
                            + " does not run the jobinfo-store drop-in (jobs stay inline)");
                    return;
                }
            }
            verdict = new Verdict(true, members, System.currentTimeMillis(), "");
        } catch (RuntimeException e) {
            verdict = new Verdict(false, Collections.<Member>emptySet(), System.currentTimeMillis(),
                    "the members' drop-in modes could not be read (" + e + ")");
        }
    }

    /** At most one WARN a minute: the log of a slow store would otherwise get a line per submit. */
    private void warn(String message) {
        long now = System.currentTimeMillis();
        if (now - lastWarning > 60_000) {
            lastWarning = now;
            logger.warning("jobinfo-store map store of " + JobInfoMover.MAP + ": " + message + " (as by SeaTunnel's"
                    + " own map store; the drop-in moves the job as usual and its next record is the reference)");
        } else {
            logger.fine(message);
        }
    }

    void close() {
        checker.shutdownNow();
        writers.shutdown();
    }
}
