package io.jobinfo.store.ops;

import io.jobinfo.store.codec.CodecException;

/**
 * One shape of an inline value in the job map that {@link Migrator}, {@link Verifier} and the command line tool
 * understand: how to recognise it, what job it holds, and how to build it again when a pointer is rolled back. The
 * pointer that replaces an inline value is always a {@link io.jobinfo.store.service.JobInfoPointer}, which keeps the
 * initialization timestamp and the codec id, so a rollback can rebuild the value of the format that
 * {@link #restores(int) restores} that codec.
 *
 * <p>Implementations: {@link InlineJobInfoFormat} (this library's {@code InlineJobInfo}) and, in
 * {@code jobinfo-store-seatunnel}, the format of SeaTunnel's own {@code JobInfo}. Implementations never deserialize
 * the job itself and never load a class named by stored bytes. They must be thread-safe.
 */
public interface JobValueFormat {

    /** Short name, as {@code --value-format} spells it: {@code inline}, {@code seatunnel}. */
    String name();

    /** Whether {@code value} (a value read from the job map, never null) is an inline job of this format. */
    boolean recognises(Object value);

    /**
     * The job inside {@code value}, which {@link #recognises} accepted.
     *
     * @param jobId the map key the value was found under
     * @throws CodecException the value is of this format but malformed (no job, or a job of another id); the
     *                        message names the job
     */
    InlineJob read(long jobId, Object value) throws CodecException;

    /** Whether a rollback of a pointer with {@code codecId} restores a value of this format. */
    boolean restores(int codecId);

    /**
     * The inline value a rollback writes back for {@code job}.
     *
     * @throws CodecException the job's bytes are not a valid job of this format for {@code jobId}
     */
    Object inlineValue(long jobId, InlineJob job) throws CodecException;

    /** Serialized size of this format's value holding a job of {@code payloadLength} bytes, as the map stores it. */
    long valueBytes(long payloadLength);
}
