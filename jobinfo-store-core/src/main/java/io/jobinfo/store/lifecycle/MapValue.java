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
    /** The value exactly as the map stored it (a Hazelcast {@code Data}), where the reader got it; else null. */
    private final Object stored;

    private MapValue(long jobId, Kind kind, Object value, String problem, int serializedBytes, Object stored) {
        this.jobId = jobId;
        this.kind = kind;
        this.value = value;
        this.problem = problem;
        this.serializedBytes = serializedBytes;
        this.stored = stored;
    }

    static MapValue absent(long jobId) {
        return new MapValue(jobId, Kind.ABSENT, null, null, 0, null);
    }

    static MapValue decoded(long jobId, Object value, int serializedBytes) {
        return new MapValue(jobId, Kind.DECODED, value, null, serializedBytes, null);
    }

    /** A decoded value that was read as {@code stored}, the map's serialized form of it. */
    static MapValue decoded(long jobId, Object value, int serializedBytes, Object stored) {
        return new MapValue(jobId, Kind.DECODED, value, null, serializedBytes, stored);
    }

    static MapValue undecodable(long jobId, String problem, int serializedBytes) {
        return new MapValue(jobId, Kind.UNDECODABLE, null, problem, serializedBytes, null);
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
     * What to pass as the expected value of a compare-and-set ({@code IMap.replace(key, expected, update)}) against
     * this read: the value exactly as the map stored it (a Hazelcast {@code Data}, which proxies send as it is) where
     * the reader got it raw, else {@link #value()}. The map compares the serialized forms either way; handing back the
     * stored bytes saves serializing the value again (for an inline job, a copy of its whole payload per attempt) and
     * cannot differ from them, as a second serialization could if a serializer were not deterministic.
     * {@code null} unless {@link #decoded()}.
     */
    public Object compareValue() {
        return stored != null ? stored : value;
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
