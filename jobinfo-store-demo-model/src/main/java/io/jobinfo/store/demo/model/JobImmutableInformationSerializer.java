package io.jobinfo.store.demo.model;


import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Kryo serializer of the look-alike {@link JobImmutableInformation}: every field in a fixed order after a schema
 * byte, so no class name ever enters the data. Stateless, so one instance is shared by all pooled Kryo instances of a
 * {@link KryoJobInfoCodec}.
 *
 * <p>Reading throws {@link IllegalArgumentException} for an unknown schema, a missing field, an unknown env option
 * tag or an implausible length, naming the field; {@link KryoJobInfoCodec} turns it into a {@code CodecException}.
 * Every count and the DAG's length are checked against the bytes left before anything is allocated; string lengths
 * are checked by the codec's input (see {@link KryoJobInfoCodec}), so a few hostile bytes never allocate more than
 * they could hold.
 */
public final class JobImmutableInformationSerializer extends Serializer<JobImmutableInformation> {

    /** The Kryo registration id of {@link JobImmutableInformation} (never written to the data by this codec). */
    public static final int REGISTRATION_ID = 100;
    private static final int SCHEMA = 1;

    private static final byte T_STRING = 1;
    private static final byte T_LONG = 2;
    private static final byte T_INT = 3;
    private static final byte T_DOUBLE = 4;
    private static final byte T_BOOLEAN = 5;

    public JobImmutableInformationSerializer() {
        setImmutable(true);
    }

    /**
     * The codec of the look-alike job, codec id {@link KryoJobInfoCodec#ID}; sizes its buffer from the logical DAG so
     * the DAG is copied once. Thread-safe; one instance can serve a whole process.
     */
    public static KryoJobInfoCodec<JobImmutableInformation> codec() {
        return new KryoJobInfoCodec<>(JobImmutableInformation.class, new JobImmutableInformationSerializer(),
                REGISTRATION_ID, job -> job.logicalDagLength() + 4096);
    }

    @Override
    public void write(Kryo kryo, Output out, JobImmutableInformation job) {
        out.writeByte(SCHEMA);
        out.writeLong(job.jobId());
        out.writeString(job.jobName());
        out.writeBoolean(job.isStartWithSavePoint());
        out.writeLong(job.createTime());
        out.writeVarInt(job.logicalDagLength(), true);
        try {
            job.writeLogicalDagTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.writeString(job.jobConfig().name());
        out.writeVarInt(job.jobConfig().envOptions().size(), true);
        for (Map.Entry<String, Object> e : job.jobConfig().envOptions().entrySet()) {
            out.writeString(e.getKey());
            Object v = e.getValue();
            if (v instanceof String) {
                out.writeByte(T_STRING);
                out.writeString((String) v);
            } else if (v instanceof Long) {
                out.writeByte(T_LONG);
                out.writeVarLong((Long) v, false);
            } else if (v instanceof Integer) {
                out.writeByte(T_INT);
                out.writeVarInt((Integer) v, false);
            } else if (v instanceof Double) {
                out.writeByte(T_DOUBLE);
                out.writeDouble((Double) v);
            } else if (v instanceof Boolean) {
                out.writeByte(T_BOOLEAN);
                out.writeBoolean((Boolean) v);
            } else {
                throw new IllegalArgumentException("env option '" + e.getKey() + "' cannot be encoded");
            }
        }
        out.writeVarInt(job.pluginJarsUrls().size(), true);
        for (String url : job.pluginJarsUrls()) {
            out.writeString(url);
        }
        out.writeVarInt(job.connectorJarIdentifiers().size(), true);
        for (ConnectorJarIdentifier c : job.connectorJarIdentifiers()) {
            out.writeVarLong(c.connectorJarId(), false);
            out.writeString(c.type());
            out.writeString(c.pluginName());
            out.writeString(c.storagePath());
            out.writeString(c.fileName());
        }
    }

    @Override
    public JobImmutableInformation read(Kryo kryo, Input in, Class<? extends JobImmutableInformation> type) {
        int schema = in.readByte();
        if (schema != SCHEMA) {
            throw new IllegalArgumentException("unknown schema " + schema + " (this reader knows " + SCHEMA
                    + "); upgrade jobinfo-store");
        }
        long jobId = in.readLong();
        String jobName = string(in, "jobName");
        boolean savePoint = in.readBoolean();
        long createTime = in.readLong();
        int dagLength = in.readVarInt(true);
        if (dagLength < 0 || dagLength > in.limit() - in.position()) {
            throw new IllegalArgumentException("logical DAG length " + dagLength + " exceeds the payload: "
                    + (in.limit() - in.position()) + " bytes remain");
        }
        byte[] dag = in.readBytes(dagLength);
        String configName = string(in, "jobConfig.name");
        int options = count(in, "env options");
        Map<String, Object> env = new LinkedHashMap<>();
        for (int i = 0; i < options; i++) {
            String key = string(in, "env option key");
            env.put(key, readOption(in, key));
        }
        int jars = count(in, "plugin jar urls");
        List<String> urls = new ArrayList<>(jars);
        for (int i = 0; i < jars; i++) {
            urls.add(string(in, "plugin jar url"));
        }
        int connectors = count(in, "connector jars");
        Set<ConnectorJarIdentifier> ids = new LinkedHashSet<>();
        for (int i = 0; i < connectors; i++) {
            ids.add(new ConnectorJarIdentifier(in.readVarLong(false), string(in, "connector jar type"),
                    string(in, "connector jar pluginName"), string(in, "connector jar storagePath"),
                    string(in, "connector jar fileName")));
        }
        return new JobImmutableInformation(jobId, jobName, savePoint, createTime, dag,
                new JobConfig(configName, env), urls, ids);
    }

    private static Object readOption(Input in, String key) {
        byte tag = in.readByte();
        switch (tag) {
            case T_STRING:
                return string(in, "env option '" + key + "'");
            case T_LONG:
                return in.readVarLong(false);
            case T_INT:
                return in.readVarInt(false);
            case T_DOUBLE:
                return in.readDouble();
            case T_BOOLEAN:
                return in.readBoolean();
            default:
                throw new IllegalArgumentException("unknown env option value tag " + tag);
        }
    }

    /** A count of elements of at least one byte each: never more than the bytes left. */
    private static int count(Input in, String what) {
        int n = in.readVarInt(true);
        if (n < 0 || n > in.limit() - in.position()) {
            throw new IllegalArgumentException("implausible count of " + what + ": " + n + " elements claimed, "
                    + (in.limit() - in.position()) + " bytes remain");
        }
        return n;
    }

    /**
     * A string that must be present; a failure to read it (a length the bytes left cannot hold, refused by the
     * codec's input before anything is allocated, or bytes that end too soon) names {@code what}.
     */
    private static String string(Input in, String what) {
        String s;
        try {
            s = in.readString();
        } catch (KryoException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
        if (s == null) {
            throw new IllegalArgumentException(what + " is missing");
        }
        return s;
    }
}
