package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.logging.ILogger;
import com.hazelcast.spi.impl.operationexecutor.impl.PartitionOperationThread;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;

/**
 * The drop-in's store, watched: every call is counted by the kind of thread that makes it
 * ({@link DropInMetrics#storeCalls}, {@link DropInMetrics#storeCallsOnPartitionThreads} and the set of thread kinds,
 * {@link DropInMetrics#storeThreadKinds()}). The design keeps store I/O off Hazelcast's partition threads (blobs are
 * written and deleted by mover threads, read where SeaTunnel deserializes a job); this is how an operator, and the
 * tests, see that it stays so.
 *
 * <p>A call on a partition thread is not refused (refusing would fail a SeaTunnel operation the drop-in cannot
 * foresee): it is carried out, counted, and logged as a warning naming the operation and the thread, at most once a
 * minute. Every other behaviour, failures included, is the wrapped store's (every call is forwarded, the
 * interface's default ones too: {@link ForwardingJobInfoStore}).
 */
final class ThreadWatchedStore extends ForwardingJobInfoStore {

    private final DropInMetrics metrics;
    private final ILogger logger;
    private volatile long lastWarning;

    ThreadWatchedStore(JobInfoStore store, DropInMetrics metrics, ILogger logger) {
        super(store);
        this.metrics = metrics;
        this.logger = logger;
    }

    /** Whether {@code thread} is one of Hazelcast's partition-operation threads. */
    static boolean isPartitionThread(Thread thread) {
        return thread instanceof PartitionOperationThread || thread.getName().contains(".partition-operation.");
    }

    /** A thread's name without its numbers ({@code hz.x.partition-operation.thread-3} -> {@code hz.x.partition-operation.thread-#}). */
    static String kind(Thread thread) {
        return thread.getName().replaceAll("[0-9]+", "#");
    }

    @Override
    protected void beforeCall(String operation) {
        Thread t = Thread.currentThread();
        metrics.storeCalls.incrementAndGet();
        metrics.recordStoreThread(kind(t));
        if (isPartitionThread(t)) {
            metrics.storeCallsOnPartitionThreads.incrementAndGet();
            long now = System.currentTimeMillis();
            if (now - lastWarning > 60_000) {
                lastWarning = now;
                logger.warning("jobinfo store " + operation + " called on the Hazelcast partition thread " + t.getName()
                        + ": store I/O blocks that partition; please report this with the stack trace",
                        new IllegalStateException("store call on a partition thread"));
            }
        }
    }
}
