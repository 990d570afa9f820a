package io.jobinfo.store.seatunnel.dropin;

/**
 * Told about each step of the drop-in's work on a member, on the thread that takes the step: for audit trails, traces
 * and fault-injection tests, which the drop-in itself does not ship. Implementations are found with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.jobinfo.store.seatunnel.dropin.DropInStepListener} on
 * the member's classpath) when the drop-in's classes load; none is installed by default.
 *
 * <p>Failure: a listener that throws a {@link RuntimeException} is ignored for that step (the drop-in carries on); one
 * that blocks holds the step's thread, which may be the thread SeaTunnel reads a job on ({@link Step#RESOLVE}); no
 * step runs on a Hazelcast partition thread.
 */
public interface DropInStepListener {

    /** The steps, in the order a job meets them. {@link #id()} names each in files and logs. */
    enum Step {
        /** The put landed; the mover is about to write the blob. */
        BEFORE_BLOB("before-blob"),
        /** The blob is written; the reference is about to replace the inline value. */
        BEFORE_REPLACE("before-replace"),
        /** The reference is in place. */
        AFTER_REPLACE("after-replace"),
        /** SeaTunnel removed the entry (job end); the blob is about to be deleted. */
        BEFORE_BLOB_DELETE("before-blob-delete"),
        /** The gc found no entry for a blob (under the id's claim lock) and is about to delete it. */
        BEFORE_GC_DELETE("before-gc-delete"),
        /** A job is being read back through the store (a restore, REST, a client). */
        RESOLVE("resolve");

        private final String id;

        Step(String id) {
            this.id = id;
        }

        /** The step's name in files and logs ({@code before-blob}, ...). */
        public String id() {
            return id;
        }
    }

    /**
     * The drop-in reached {@code step} for the job {@code jobId} ({@code -1} where the job is not known yet).
     */
    void reached(Step step, long jobId);
}
