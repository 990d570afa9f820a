package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.DeleteMarker;

/**
 * Test seam: told about each step of {@link RunningJobInfoRegistry#submit}, on the submitting thread, so that
 * fault-injection tests can crash the process (or pause it) exactly between two steps. Production code leaves it
 * unset (a no-op). An exception thrown here aborts the submit like a failure of the following step would.
 */
public interface SubmitObserver {

    /** No-op. */
    SubmitObserver NONE = new SubmitObserver() {
    };

    /** The job is encoded; nothing has been written yet. */
    default void beforeBlobWrite(long jobId) {
    }

    /** The blob is stored; the pointer is not written yet. */
    default void afterBlobWrite(long jobId) {
    }

    /** The pointer is in the map; the submit has not returned (it is not acknowledged yet). */
    default void afterPointerWrite(long jobId) {
    }

    /**
     * The pointer write met a {@link DeleteMarker}: the job id is being deleted. The submit now waits (bounded) for
     * the claim to go and then writes blob and pointer again.
     */
    default void claimMet(long jobId, DeleteMarker marker) {
    }
}
