package io.jobinfo.store.lifecycle;


import com.hazelcast.client.impl.spi.ClientProxy;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.AbstractDistributedObject;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Reads values of a job map without ever instantiating a class that the stored bytes name: the one way the operator
 * tools ({@link io.jobinfo.store.ops.GarbageCollector}, {@link io.jobinfo.store.ops.Verifier}, {@link io.jobinfo.store.ops.Migrator}, {@code inspect}) read a value.
 *
 * <p><b>How.</b> The value is fetched as the Hazelcast {@code Data} the map stores (the serialized bytes; the members
 * deserialize nothing either, unlike a predicate or a projection, which would need the value's class on every member)
 * and classified by its header: the serializer type id and, for an {@code IdentifiedDataSerializable}, its factory
 * and class id. Only these are decoded, by Hazelcast's serialization service of the map's own instance:
 * <ul>
 *   <li>this library's values in the map (pointer, inline value, delete marker), by factory and class id;</li>
 *   <li>the values of the run's {@link JobValueFormat}s ({@link JobValueFormat#readsIdentified}), such as SeaTunnel's
 *       {@code JobInfo}, also created by factory and class id;</li>
 *   <li>Hazelcast's built-in scalars, strings and UUIDs (no class is named by their bytes).</li>
 * </ul>
 * Anything else (a Java-serialized or externalizable object, a {@code DataSerializable} naming its class by name, an
 * {@code IdentifiedDataSerializable} of another factory or class, a {@code Portable} or {@code Compact} value, a
 * custom serializer's type id, Java collections whose elements could be anything, bytes too short to be a value) is
 * {@link MapValue.Kind#UNDECODABLE}: reported by the caller with its job id, and the run goes on with the other jobs.
 * An allowed value whose body does not decode is undecodable too.
 *
 * <p><b>Hazelcast internals.</b> No public API returns a map value as Data: both proxies (the client's
 * {@code ClientMapProxy} and the member's {@code MapProxyImpl}) fetch it with their protected {@code getInternal} and
 * deserialize afterwards. The reader calls that method reflectively (present with the same meaning in 5.1 and 5.7) and
 * finds the serialization service through {@code ClientProxy.getContext()} or {@code AbstractDistributedObject
 * .getNodeEngine()}. A proxy with a near cache may return the value already deserialized (it is then taken as is). For
 * a map that is no Hazelcast proxy (or if the reflective call is refused) the reader falls back to {@link IMap#get},
 * and a value whose deserialization fails is undecodable.
 *
 * <p>Thread-safe. A failure of the cluster call itself (not of the value) is thrown as the {@link RuntimeException}
 * Hazelcast threw.
 */
public final class MapValueReader {

    /** The serializer type ids this reader knows by name (Hazelcast's {@code SerializationConstants}). */
    static final int TYPE_PORTABLE = -1;
    static final int TYPE_DATA_SERIALIZABLE = -2;
    static final int TYPE_BYTE = -3;
    static final int TYPE_STRING = -11;
    static final int TYPE_BYTE_ARRAY = -12;
    static final int TYPE_STRING_ARRAY = -20;
    static final int TYPE_UUID = -21;
    static final int TYPE_JAVA_DEFAULTS_FIRST = -22;
    static final int TYPE_JAVA_CLASS = -24;
    static final int TYPE_JAVA_DEFAULTS_LAST = -54;
    static final int TYPE_COMPACT = -55;
    static final int TYPE_COMPACT_WITH_SCHEMA = -56;
    static final int TYPE_JAVA_SERIALIZABLE = -100;
    static final int TYPE_JAVA_EXTERNALIZABLE = -101;
    /** Partition hash and type id, as {@code HeapData} lays them out (always big-endian). */
    static final int DATA_HEADER = 8;
    private static final int IDS_FLAG = 1;
    private static final int MAX_NAME_SHOWN = 200;

    private final IMap<Long, ?> map;
    private final JobValueFormats formats;
    private final Method getInternal;
    private final SerializationService serialization;
    private final ByteOrder byteOrder;

    /**
     * @param formats the value formats of the run: their {@link JobValueFormat#readsIdentified} types are decoded
     *                besides this library's own values
     */
    public MapValueReader(IMap<Long, ?> map, JobValueFormats formats) {
        this.map = Objects.requireNonNull(map, "map");
        this.formats = Objects.requireNonNull(formats, "formats");
        SerializationService ss = serializationOf(map);
        Method raw = ss == null ? null : rawGetter(map.getClass());
        this.serialization = raw == null ? null : ss;
        this.getInternal = raw;
        this.byteOrder = ss instanceof InternalSerializationService
                ? ((InternalSerializationService) ss).getByteOrder() : ByteOrder.BIG_ENDIAN;
    }

    /** A reader that decodes this library's own values only (and built-in scalars). */
    public MapValueReader(IMap<Long, ?> map) {
        this(map, JobValueFormats.inlineOnly());
    }

    /** Whether values are read as raw Data (always, for Hazelcast's own map proxies). */
    public boolean raw() {
        return getInternal != null;
    }

    /**
     * The value under {@code jobId}.
     *
     * @throws RuntimeException the cluster call failed (not the value: a value that cannot be read is returned as
     *                          {@link MapValue.Kind#UNDECODABLE})
     */
    public MapValue read(long jobId) {
        if (getInternal == null) {
            return readDeserializing(jobId);
        }
        Object stored = invokeGetInternal(jobId);
        if (stored == null) {
            return MapValue.absent(jobId);
        }
        if (!(stored instanceof Data)) {
            return MapValue.decoded(jobId, stored, 0); // a near cache's deserialized copy
        }
        return classify(jobId, ((Data) stored).toByteArray());
    }

    /**
     * The value that {@code stored} holds: the map's serialized form of a value as an entry event of a member's own
     * entries carries it ({@code DataAwareEntryEvent}), decoded only if its type is allowed, as {@link #read} does.
     * Null is {@link MapValue.Kind#ABSENT}.
     */
    public MapValue classify(long jobId, Data stored) {
        return stored == null ? MapValue.absent(jobId) : classify(jobId, stored.toByteArray());
    }

    /** The value that {@code dataBytes} (a whole Hazelcast Data) holds, decoded only if its type is allowed. */
    MapValue classify(long jobId, byte[] dataBytes) {
        if (dataBytes == null || dataBytes.length < DATA_HEADER) {
            return MapValue.undecodable(jobId, cannotRead("not a Hazelcast value (" + (dataBytes == null ? 0
                    : dataBytes.length) + " bytes)"), dataBytes == null ? 0 : dataBytes.length);
        }
        int type = readInt(dataBytes, 4, ByteOrder.BIG_ENDIAN);
        if (!allowed(dataBytes, type)) {
            return MapValue.undecodable(jobId, cannotRead(describe(dataBytes, byteOrder)), dataBytes.length);
        }
        try {
            HeapData data = new HeapData(dataBytes);
            Object value = serialization.toObject(data);
            return value == null ? MapValue.absent(jobId) : MapValue.decoded(jobId, value, dataBytes.length, data);
        } catch (RuntimeException e) {
            return MapValue.undecodable(jobId, "the map value cannot be read: it is " + describe(dataBytes,
                    byteOrder) + " but its bytes do not decode (" + e.getMessage() + ")", dataBytes.length);
        }
    }

    private String cannotRead(String what) {
        return "the map value cannot be read: it is " + what + ", not a value of jobinfo-store or of the value"
                + " formats " + formats.names() + ", and decoding it is not allowed: nothing was deserialized";
    }

    private boolean allowed(byte[] data, int type) {
        if ((type >= TYPE_STRING && type <= TYPE_BYTE) || type == TYPE_UUID) {
            return true; // scalars and strings: no class is named by their bytes
        }
        if (type != TYPE_DATA_SERIALIZABLE || data.length < DATA_HEADER + 9
                || (data[DATA_HEADER] & IDS_FLAG) == 0) {
            return false;
        }
        int factoryId = readInt(data, DATA_HEADER + 1, byteOrder);
        int classId = readInt(data, DATA_HEADER + 5, byteOrder);
        if (factoryId == JobInfoSerialization.FACTORY_ID && (classId == JobInfoSerialization.POINTER_CLASS_ID
                || classId == JobInfoSerialization.INLINE_CLASS_ID
                || classId == JobInfoSerialization.DELETE_MARKER_CLASS_ID)) {
            return true;
        }
        for (JobValueFormat f : formats.formats()) {
            if (f.readsIdentified(factoryId, classId)) {
                return true;
            }
        }
        return false;
    }

    /**
     * What a value is, from its header alone, for messages: "a Java-serialized object of class x.Y (serializer type
     * id -100)", "an IdentifiedDataSerializable of factory id 7, class id 3", "a DataSerializable naming class
     * 'x.Y'", "a value of custom serializer type id 4242"... Never instantiates anything.
     *
     * @param byteOrder the byte order of the value's body (the serialization service's; the Data header is always
     *                  big-endian)
     */
    static String describe(byte[] data, ByteOrder byteOrder) {
        if (data == null || data.length < DATA_HEADER) {
            return "not a Hazelcast value (" + (data == null ? 0 : data.length) + " bytes)";
        }
        int type = readInt(data, 4, ByteOrder.BIG_ENDIAN);
        String size = ", " + data.length + " bytes";
        switch (type) {
            case TYPE_DATA_SERIALIZABLE:
                return dataSerializable(data, byteOrder) + " (serializer type id " + type + size + ")";
            case TYPE_JAVA_SERIALIZABLE:
            case TYPE_JAVA_EXTERNALIZABLE:
                String cls = javaClassName(data);
                return "a Java-" + (type == TYPE_JAVA_SERIALIZABLE ? "serialized" : "externalized") + " object"
                        + (cls == null ? "" : " of class " + cls) + " (serializer type id " + type + size + ")";
            case TYPE_PORTABLE:
                return "a Portable (serializer type id " + type + size + ")";
            case TYPE_COMPACT:
            case TYPE_COMPACT_WITH_SCHEMA:
                return "a Compact value (serializer type id " + type + size + ")";
            case TYPE_JAVA_CLASS:
                return "a java.lang.Class (serializer type id " + type + size + ")";
            case 0:
                return "a null value (serializer type id 0" + size + ")";
            default:
                if (type <= TYPE_BYTE_ARRAY && type >= TYPE_STRING_ARRAY) {
                    return "an array (serializer type id " + type + size + ")";
                }
                if (type <= TYPE_JAVA_DEFAULTS_FIRST && type >= TYPE_JAVA_DEFAULTS_LAST) {
                    return "a Java collection, array or date of Hazelcast's built-in serializers, whose elements"
                            + " could be anything (serializer type id " + type + size + ")";
                }
                if (type > 0) {
                    return "a value of custom serializer type id " + type + " (a serializer registered where the"
                            + " value was written" + size + ")";
                }
                return "a value of Hazelcast serializer type id " + type + " (" + data.length + " bytes)";
        }
    }

    private static String dataSerializable(byte[] data, ByteOrder byteOrder) {
        if (data.length < DATA_HEADER + 1) {
            return "a DataSerializable cut short";
        }
        if ((data[DATA_HEADER] & IDS_FLAG) != 0) {
            if (data.length < DATA_HEADER + 9) {
                return "an IdentifiedDataSerializable cut short";
            }
            return "an IdentifiedDataSerializable of factory id " + readInt(data, DATA_HEADER + 1, byteOrder)
                    + ", class id " + readInt(data, DATA_HEADER + 5, byteOrder);
        }
        // not identified: the class is named by its name, as ObjectDataOutput.writeString writes it (length in
        // bytes, then UTF-8)
        String name = null;
        if (data.length >= DATA_HEADER + 5) {
            int length = readInt(data, DATA_HEADER + 1, byteOrder);
            if (length > 0 && length <= data.length - DATA_HEADER - 5) {
                name = printable(new String(data, DATA_HEADER + 5, length, StandardCharsets.UTF_8));
            }
        }
        return "a DataSerializable naming its class by name" + (name == null ? "" : " ('" + name + "')");
    }

    /** The class name of a Java serialization stream's first object, or null (a stream of another shape). */
    private static String javaClassName(byte[] data) {
        // ObjectOutputStream: magic 0xACED, version 5, TC_OBJECT 0x73, TC_CLASSDESC 0x72, modified UTF-8 name
        for (int i = DATA_HEADER; i + 8 < data.length && i < DATA_HEADER + 16; i++) {
            if ((data[i] & 0xff) == 0xAC && (data[i + 1] & 0xff) == 0xED && data[i + 2] == 0 && data[i + 3] == 5) {
                if (data[i + 4] != 0x73 || data[i + 5] != 0x72) {
                    return null;
                }
                int length = ((data[i + 6] & 0xff) << 8) | (data[i + 7] & 0xff);
                if (length == 0 || i + 8 + length > data.length) {
                    return null;
                }
                return printable(new String(data, i + 8, length, StandardCharsets.UTF_8));
            }
        }
        return null;
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), MAX_NAME_SHOWN));
        for (int i = 0; i < s.length() && b.length() < MAX_NAME_SHOWN; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return s.length() > MAX_NAME_SHOWN ? b + "..." : b.toString();
    }

    private static int readInt(byte[] b, int offset, ByteOrder order) {
        int v = ((b[offset] & 0xff) << 24) | ((b[offset + 1] & 0xff) << 16) | ((b[offset + 2] & 0xff) << 8)
                | (b[offset + 3] & 0xff);
        return order == ByteOrder.BIG_ENDIAN ? v : Integer.reverseBytes(v);
    }

    private MapValue readDeserializing(long jobId) {
        Object value;
        try {
            value = map.get(jobId);
        } catch (com.hazelcast.nio.serialization.HazelcastSerializationException e) {
            return MapValue.undecodable(jobId, "the map value cannot be read: " + e.getMessage(), 0);
        }
        return value == null ? MapValue.absent(jobId) : MapValue.decoded(jobId, value, 0);
    }

    private Object invokeGetInternal(long jobId) {
        try {
            return getInternal.invoke(map, jobId);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IllegalStateException("reading the value of job " + jobId + " failed: " + cause, cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("reading the value of job " + jobId + " as Data is refused: " + e, e);
        }
    }

    private static SerializationService serializationOf(IMap<?, ?> map) {
        try {
            if (map instanceof ClientProxy) {
                return ((ClientProxy) map).getContext().getSerializationService();
            }
            if (map instanceof AbstractDistributedObject) {
                return ((AbstractDistributedObject<?>) map).getNodeEngine().getSerializationService();
            }
        } catch (RuntimeException | LinkageError e) {
            // another Hazelcast version's internals: read by deserializing (see the class comment)
        }
        return null;
    }

    private static Method rawGetter(Class<?> proxyClass) {
        for (Class<?> c = proxyClass; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod("getInternal", Object.class);
                m.setAccessible(true);
                return m;
            } catch (NoSuchMethodException e) {
                // look in the superclass
            } catch (RuntimeException e) {
                return null; // refused (a module boundary, a security manager): read by deserializing
            }
        }
        return null;
    }
}
