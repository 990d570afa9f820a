package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.DeleteMarker;

/**
 * Told of each phase of {@link RunningJobInfoRegistry#submit}, on the submitting thread: for tracing a submit, for
 * counting claims met, or for fault injection that must stand exactly between two steps (the crash trials park a
 * submit here). The registry records the phases' durations itself (timer {@code jobinfo.submit.phase}, see
 * {@link RunningJobInfoRegistry.Builder#meterRegistry}); a listener adds to that. Default: none.
 *
 * <p>Failure: an exception thrown here aborts the submit like a failure of the following step would (before the blob
 * write: nothing stored; after it: the blob is an orphan for GC; after the pointer: the job is registered but the
 * submit is not acknowledged). Keep a listener quick: it runs inside every submit.
 */
public interface SubmitPhaseListener {

    /** No-op. */
    SubmitPhaseListener NONE = new SubmitPhaseListener() {
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
