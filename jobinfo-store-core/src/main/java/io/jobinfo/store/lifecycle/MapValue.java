package io.jobinfo.store.lifecycle;

/**
 * One value of a job map as {@link MapValueReader} found it: absent, decoded (a value of a type the reader allows,
 * created by Hazelcast from its factory and class id, or a plain built-in value), or undecodable (any other value, or
 * an allowed one whose bytes do not decode), with a sentence saying what it is. Immutable.
 */
public final class MapValue {

    /** What the reader found. */
    public enum Kind {
        /** No value under the key. */
        ABSENT,
        /** {@link #value()} holds the decoded value. */
        DECODED,
        /** The value cannot be read; {@link #problem()} says what it is. Nothing was instantiated from it. */
        UNDECODABLE
    }

    private final long jobId;
    private final Kind kind;
    private final Object value;
    private final String problem;
    private final int serializedBytes;

    private MapValue(long jobId, Kind kind, Object value, String problem, int serializedBytes) {
        this.jobId = jobId;
        this.kind = kind;
        this.value = value;
        this.problem = problem;
        this.serializedBytes = serializedBytes;
    }

    static MapValue absent(long jobId) {
        return new MapValue(jobId, Kind.ABSENT, null, null, 0);
    }

    static MapValue decoded(long jobId, Object value, int serializedBytes) {
        return new MapValue(jobId, Kind.DECODED, value, null, serializedBytes);
    }

    static MapValue undecodable(long jobId, String problem, int serializedBytes) {
        return new MapValue(jobId, Kind.UNDECODABLE, null, problem, serializedBytes);
    }

    /** The key the value was read under. */
    public long jobId() {
        return jobId;
    }

    public Kind kind() {
        return kind;
    }

    public boolean absent() {
        return kind == Kind.ABSENT;
    }

    public boolean decoded() {
        return kind == Kind.DECODED;
    }

    public boolean undecodable() {
        return kind == Kind.UNDECODABLE;
    }

    /** The decoded value; {@code null} unless {@link #decoded()}. */
    public Object value() {
        return value;
    }

    /**
     * For an {@link #undecodable()} value, a sentence saying what the value is and why it is not read (such as "the
     * map value cannot be read: it is a Java-serialized object of class x.Y, ..."); {@code null} otherwise. It does
     * not repeat the job id.
     */
    public String problem() {
        return problem;
    }

    /** Size of the value as the map stores it (Hazelcast Data), or 0 when absent or not known. */
    public int serializedBytes() {
        return serializedBytes;
    }

    @Override
    public String toString() {
        switch (kind) {
            case ABSENT:
                return "MapValue{job " + jobId + ": absent}";
            case DECODED:
                return "MapValue{job " + jobId + ": " + value + "}";
            default:
                return "MapValue{job " + jobId + ": " + problem + "}";
        }
    }
}
