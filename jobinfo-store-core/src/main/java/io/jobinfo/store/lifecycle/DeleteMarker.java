package io.jobinfo.store.lifecycle;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import java.io.IOException;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A claim on a job id while its blob is being deleted: the value a deleter puts in the job map under the job id
 * <em>before</em> it deletes the blob, and removes (with {@code remove(jobId, marker)}) only after the delete. While
 * the marker is there, no pointer can be put under the id ({@code putIfAbsent} fails), so a retried submit whose
 * {@code create} reported ALREADY_PRESENT cannot register a blob that is about to disappear.
 *
 * <ul>
 *   <li>GC of an orphan: {@code putIfAbsent(jobId, marker)}; if anything else is there, the blob is kept.</li>
 *   <li>Removal of a job: {@code replace(jobId, pointer, marker)} (fenced like every removal).</li>
 *   <li>Migrator cleanup of a blob it wrote for an entry that went away: {@code putIfAbsent(jobId, marker)}.</li>
 * </ul>
 *
 * <p>Every reader treats a marker as "no job" (never as corruption). A marker left behind by a deleter that crashed
 * (or whose blob delete failed) is an interrupted deletion: {@link io.jobinfo.store.ops.GarbageCollector} finishes it
 * once the marker is older than its grace period (deletes the blob if still there, then removes the marker).
 *
 * <p>Each marker carries a random nonce, so {@code remove(jobId, marker)} only ever removes the claim its own deleter
 * put. Serialized as {@link IdentifiedDataSerializable} (about 60 bytes). Immutable once deserialized.
 */
public final class DeleteMarker implements JobInfoSerializable {

    private static final int MAX_OWNER_CHARS = 64;

    private long jobId;
    private long claimedAtMillis;
    private long nonceHigh;
    private long nonceLow;
    private String owner;

    /** For Hazelcast deserialization only. */
    public DeleteMarker() {
    }

    private DeleteMarker(long jobId, long claimedAtMillis, long nonceHigh, long nonceLow, String owner) {
        this.jobId = jobId;
        this.claimedAtMillis = claimedAtMillis;
        this.nonceHigh = nonceHigh;
        this.nonceLow = nonceLow;
        this.owner = owner;
    }

    /**
     * A new, unique claim.
     *
     * @param owner who deletes (such as {@code "gc"} or {@code "remove"}), for operators; at most 64 characters
     */
    public static DeleteMarker claim(long jobId, String owner, Instant now) {
        Objects.requireNonNull(owner, "owner");
        if (owner.isEmpty() || owner.length() > MAX_OWNER_CHARS) {
            throw new IllegalArgumentException("owner must be 1 to " + MAX_OWNER_CHARS + " characters: " + owner);
        }
        UUID nonce = UUID.randomUUID();
        return new DeleteMarker(jobId, now.toEpochMilli(), nonce.getMostSignificantBits(),
                nonce.getLeastSignificantBits(), owner);
    }

    public long jobId() {
        return jobId;
    }

    /** When the deletion claimed the job id. */
    public Instant claimedAt() {
        return Instant.ofEpochMilli(claimedAtMillis);
    }

    /** Who claimed it ({@code gc}, {@code remove}, {@code migrate}, ...). */
    public String owner() {
        return owner;
    }

    @Override
    public int getClassId() {
        return JobInfoSerialization.DELETE_MARKER_CLASS_ID;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(jobId);
        out.writeLong(claimedAtMillis);
        out.writeLong(nonceHigh);
        out.writeLong(nonceLow);
        out.writeString(owner);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        jobId = in.readLong();
        claimedAtMillis = in.readLong();
        nonceHigh = in.readLong();
        nonceLow = in.readLong();
        owner = JobInfoPointer.readString(in, "owner of the delete marker of job " + jobId);
        if (owner == null || owner.isEmpty() || owner.length() > MAX_OWNER_CHARS) {
            throw new IOException("invalid owner in the delete marker of job " + jobId);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DeleteMarker)) {
            return false;
        }
        DeleteMarker m = (DeleteMarker) o;
        return jobId == m.jobId && claimedAtMillis == m.claimedAtMillis && nonceHigh == m.nonceHigh
                && nonceLow == m.nonceLow && owner.equals(m.owner);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobId, nonceHigh, nonceLow);
    }

    @Override
    public String toString() {
        return "DeleteMarker{jobId=" + jobId + ", owner=" + owner + ", claimedAt=" + claimedAt() + '}';
    }
}
