package io.jobinfo.store.lifecycle;


import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.spi.StoredBlob;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The one rule that says whether a stored blob is an orphan, shared by {@link io.jobinfo.store.ops.GarbageCollector} (which deletes
 * orphans) and {@link io.jobinfo.store.ops.Verifier} (which reports them), so that the two never disagree.
 *
 * <p>A complete blob is an <b>orphan</b> when the job map holds <em>no value at all</em> under its job id (neither a
 * pointer, whichever store it names, nor an inline value) and it is <b>older than the grace period</b> (its age,
 * counted back from the run's start, exceeds the grace). A blob whose id is registered is {@link Verdict#REFERENCED},
 * however old. An unregistered blob not older than the grace, or one dated in the future (clock skew), is
 * {@link Verdict#YOUNG}: it may belong to a submit in flight (blob written, pointer not yet). A leftover of an
 * interrupted write (an incomplete blob) is a {@link Verdict#LEFTOVER} once older than the grace, else young;
 * registration does not matter for it, since no pointer ever names a leftover. The namespace's claim
 * ({@link NamespaceClaim}) is always referenced: it names the cluster the namespace belongs to.
 *
 * <p>The rule decides from what the caller tells it; checking the map again right before acting (GC does, before
 * each delete) is the caller's job. Pure and thread-safe.
 */
public final class OrphanRule {

    /** What the rule says about one blob. */
    public enum Verdict {
        /** The map holds a value under the blob's job id: keep it. */
        REFERENCED,
        /** Not referenced but not older than the grace period: keep it (a submit may be in flight). */
        YOUNG,
        /** A complete blob, not referenced, older than the grace period. */
        ORPHAN,
        /** An incomplete blob (interrupted write) older than the grace period. */
        LEFTOVER
    }

    private final Duration grace;

    /**
     * @param grace how old an unreferenced blob must be to count as an orphan; must exceed the longest time a submit
     *              may take, retries included, before anything is deleted by it
     * @throws IllegalArgumentException the grace is negative
     */
    public OrphanRule(Duration grace) {
        this.grace = Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace period must not be negative: " + grace);
        }
    }

    public Duration grace() {
        return grace;
    }

    /**
     * @param blob       a blob as the store listed it
     * @param registered whether the job map holds any value under {@code blob.jobId()}
     * @param now        the instant ages are counted back from (the run's start)
     */
    public Verdict classify(StoredBlob blob, boolean registered, Instant now) {
        if (!blob.incomplete() && (registered || NamespaceClaim.isClaim(blob.jobId()))) {
            return Verdict.REFERENCED;
        }
        if (!olderThanGrace(blob, now)) {
            return Verdict.YOUNG;
        }
        return blob.incomplete() ? Verdict.LEFTOVER : Verdict.ORPHAN;
    }

    /** Whether {@code blob} is an orphan: complete, not registered, older than the grace period. */
    public boolean isOrphan(StoredBlob blob, boolean registered, Instant now) {
        return classify(blob, registered, now) == Verdict.ORPHAN;
    }

    private boolean olderThanGrace(StoredBlob blob, Instant now) {
        return blob.lastModified().isBefore(now.minus(grace));
    }

    @Override
    public String toString() {
        return "OrphanRule[grace=" + grace + "]";
    }
}
