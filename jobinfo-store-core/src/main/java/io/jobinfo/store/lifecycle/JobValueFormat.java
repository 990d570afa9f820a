package io.jobinfo.store.lifecycle;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;


import io.jobinfo.store.lifecycle.JobInfoPointer;

import io.jobinfo.store.codec.CodecException;

/**
 * One shape of an inline value in the job map that {@link io.jobinfo.store.ops.Migrator}, {@link io.jobinfo.store.ops.Verifier} and the command line tool
 * understand: how to recognise it, what job it holds, and how to build it again when a pointer is rolled back. The
 * pointer that replaces an inline value is a {@link io.jobinfo.store.lifecycle.JobInfoPointer}, which keeps the
 * initialization timestamp and the codec id, so a rollback can rebuild the value of the format that
 * {@link #restores(int) restores} that codec. By default the map holds the pointer itself; a format whose readers
 * expect their own value class in the map (SeaTunnel's engine reads every value as its {@code JobInfo}) wraps the
 * pointer in that class instead ({@link #pointerValue}) and finds it there again ({@link #pointerIn}).
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
     * Whether a map value that is a Hazelcast {@code IdentifiedDataSerializable} of this factory and class id is this
     * format's value (its inline job or its wrapped pointer), so that the tools let Hazelcast create it by these ids
     * and decode it. The tools decode nothing else (see {@link MapValueReader}): a value of a type no format claims
     * is reported, never deserialized. Default: {@code false} (the format's values are this library's own).
     */
    default boolean readsIdentified(int factoryId, int classId) {
        return false;
    }

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

    /**
     * The map value that stands for {@code pointer} once a value of this format has been migrated. Default: the
     * pointer itself.
     */
    default Object pointerValue(JobInfoPointer pointer) {
        return pointer;
    }

    /**
     * The pointer inside {@code value} if {@code value} is this format's wrapped pointer ({@link #pointerValue}), else
     * {@code null}. Default: {@code null} (the pointer is stored bare). Never throws for a value of another kind.
     */
    default JobInfoPointer pointerIn(Object value) {
        return null;
    }

    /**
     * Serialized size of {@link #pointerValue} for a store id, as the map stores it. Default: a bare pointer's.
     */
    default long pointerValueBytes(String storeId) {
        return JobInfoPointer.serializedBytes(storeId);
    }

    /**
     * The side map whose per-id locks claim job ids of {@code map} for deletes ({@link LockClaims}), when {@code map} is
     * one whose readers read every value as their own class (this format's), so that no {@link DeleteMarker} may ever
     * go into it; {@code null} (the default) when the map is this library's and delete markers are its claims. A
     * format may look at a few values ({@code reader}) and at the cluster to tell.
     */
    default String claimLocksMap(HazelcastInstance hazelcast, IMap<Long, ?> map, MapValueReader reader) {
        return null;
    }
}
