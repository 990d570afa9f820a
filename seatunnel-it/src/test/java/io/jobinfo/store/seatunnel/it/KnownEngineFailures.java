package io.jobinfo.store.seatunnel.it;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * SeaTunnel 2.3.8's own errors that end a job during the soak ({@link DropInSoakTest}) without touching what the
 * drop-in stores: an allow-list, matched on SeaTunnel's root cause of the failed job, never on the test's own message.
 * A failed operation is SeaTunnel's known error only if all of this holds:
 * <ul>
 *   <li>it carries SeaTunnel's detail of the job, and that detail says the job is {@code FAILED};</li>
 *   <li>no frame or message of the detail names {@code io.jobinfo.store} (the drop-in took no part);</li>
 *   <li>the detail's innermost {@code Caused by:} and its first frame outside the JDK
 *       ({@link EngineSoakReport#shortFailure}) match one signature below.</li>
 * </ul>
 * The soak counts these apart and bounds them ({@link #BOUND_PER_OPERATIONS}); anything else fails it.
 */
final class KnownEngineFailures {

    /** At most one known failure per this many operations; more is a failed soak, whatever their cause. */
    static final int BOUND_PER_OPERATIONS = 200;

    /** One known error: where it is reported, and the pattern of its root cause. */
    record Signature(String name, Pattern rootCause) {
    }

    static final List<Signature> SIGNATURES = List.of(
            new Signature("apache/seatunnel#10655 (fixed upstream by apache/seatunnel#10705): the checkpoint"
                    + " coordinator completes a pending checkpoint that a timeout or an abort already removed",
                    Pattern.compile("Caused by: java\\.lang\\.NullPointerException.* at org\\.apache\\.seatunnel"
                            + "\\.engine\\.server\\.checkpoint\\.CheckpointCoordinator\\.completePendingCheckpoint\\(")),
            new Signature("SeaTunnel 2.3.8, no upstream issue found: a job restored from its savepoint fails when its"
                    + " split enumerator's restored state holds a null (SourceSplitEnumeratorTask.restoreState)",
                    Pattern.compile("Caused by: (org\\.apache\\.seatunnel\\.common\\.utils\\.SeaTunnelException: )?"
                            + "java\\.lang\\.NullPointerException.* at org\\.apache\\.seatunnel\\.engine\\.server"
                            + "\\.task\\.SourceSplitEnumeratorTask\\.restoreState\\(")));

    private KnownEngineFailures() {
    }

    /** The known error {@code failure} (a failed operation as the soak records it) is, if it is one. */
    static Optional<Signature> match(String failure) {
        int detail = failure.indexOf("; SeaTunnel's detail:");
        if (detail < 0) {
            return Optional.empty();
        }
        String seaTunnel = failure.substring(detail);
        if (!seaTunnel.contains("\"jobStatus\":\"FAILED\"") || seaTunnel.contains("io.jobinfo.store")) {
            return Optional.empty();
        }
        String shortened = EngineSoakReport.shortFailure(failure);
        int cause = shortened.indexOf("; SeaTunnel's root cause: ");
        if (cause < 0) {
            return Optional.empty();
        }
        String rootCause = shortened.substring(cause);
        return SIGNATURES.stream().filter(s -> s.rootCause().matcher(rootCause).find()).findFirst();
    }

    /** How many known failures {@code operations} operations may have. */
    static int bound(int operations) {
        return Math.max(1, operations / BOUND_PER_OPERATIONS);
    }
}
