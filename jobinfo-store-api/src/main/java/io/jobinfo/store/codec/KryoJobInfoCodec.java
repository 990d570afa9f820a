package io.jobinfo.store.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import io.jobinfo.store.model.ConnectorJarIdentifier;
import io.jobinfo.store.model.JobConfig;
import io.jobinfo.store.model.JobImmutableInformation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kryo encoding of {@link JobImmutableInformation}, codec id {@value #ID}.
 *
 * <p>Kryo runs with registration required and one explicit serializer that writes every field in a fixed order
 * after a schema byte, so no class name ever enters the data and decoding never instantiates a class the bytes name.
 * Kryo instances are not thread-safe; a bounded {@link Pool} lends one per call.
 */
public final class KryoJobInfoCodec implements JobInfoCodec<JobImmutableInformation> {

    public static final int ID = 1;
    private static final int SCHEMA = 1;
    private static final int REGISTRATION_ID = 100;

    private static final byte T_STRING = 1;
    private static final byte T_LONG = 2;
    private static final byte T_INT = 3;
    private static final byte T_DOUBLE = 4;
    private static final byte T_BOOLEAN = 5;

    private final Pool<Kryo> pool = new Pool<>(true, false, Math.max(4, Runtime.getRuntime().availableProcessors() * 2)) {
        @Override
        protected Kryo create() {
            Kryo kryo = new Kryo();
            kryo.setRegistrationRequired(true);
            kryo.setReferences(false);
            kryo.register(JobImmutableInformation.class, new JobSerializer(), REGISTRATION_ID);
            return kryo;
        }
    };

    @Override
    public int id() {
        return ID;
    }

    @Override
    public String name() {
        return "kryo-jobinfo-v1";
    }

    @Override
    public Class<JobImmutableInformation> type() {
        return JobImmutableInformation.class;
    }

    @Override
    public byte[] encode(JobImmutableInformation value) {
        Kryo kryo = pool.obtain();
        try {
            Output out = new Output(value.logicalDagLength() + 4096, -1);
            kryo.writeObject(out, value);
            return out.toBytes();
        } finally {
            pool.free(kryo);
        }
    }

    /** Writes straight into Kryo's buffer after the header room: the logical DAG is copied once, no more. */
    @Override
    public EncodedPayload encode(JobImmutableInformation value, int headerRoom) {
        Kryo kryo = pool.obtain();
        try {
            Output out = new Output(headerRoom + value.logicalDagLength() + 4096, -1);
            out.setPosition(headerRoom);
            kryo.writeObject(out, value);
            return new EncodedPayload(out.getBuffer(), headerRoom, out.position() - headerRoom);
        } finally {
            pool.free(kryo);
        }
    }

    @Override
    public JobImmutableInformation decode(byte[] payload) throws CodecException {
        Kryo kryo = pool.obtain();
        try {
            Input in = new Input(payload);
            JobImmutableInformation value = kryo.readObject(in, JobImmutableInformation.class);
            if (in.position() != payload.length) {
                throw new CodecException("kryo-jobinfo-v1: " + (payload.length - in.position())
                        + " unexpected bytes after the job description");
            }
            return value;
        } catch (KryoException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CodecException("kryo-jobinfo-v1: cannot decode the job description: " + e.getMessage(), e);
        } finally {
            pool.free(kryo);
        }
    }

    private static final class JobSerializer extends Serializer<JobImmutableInformation> {
        JobSerializer() {
            setImmutable(true);
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
                if (v instanceof String s) {
                    out.writeByte(T_STRING);
                    out.writeString(s);
                } else if (v instanceof Long l) {
                    out.writeByte(T_LONG);
                    out.writeVarLong(l, false);
                } else if (v instanceof Integer i) {
                    out.writeByte(T_INT);
                    out.writeVarInt(i, false);
                } else if (v instanceof Double d) {
                    out.writeByte(T_DOUBLE);
                    out.writeDouble(d);
                } else if (v instanceof Boolean b) {
                    out.writeByte(T_BOOLEAN);
                    out.writeBoolean(b);
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
            String jobName = required(in.readString(), "jobName");
            boolean savePoint = in.readBoolean();
            long createTime = in.readLong();
            int dagLength = in.readVarInt(true);
            if (dagLength < 0 || dagLength > in.limit() - in.position()) {
                throw new IllegalArgumentException("logical DAG length " + dagLength + " exceeds the payload");
            }
            byte[] dag = in.readBytes(dagLength);
            String configName = required(in.readString(), "jobConfig.name");
            int options = count(in, "env options");
            Map<String, Object> env = new LinkedHashMap<>();
            for (int i = 0; i < options; i++) {
                String key = required(in.readString(), "env option key");
                byte tag = in.readByte();
                Object v = switch (tag) {
                    case T_STRING -> in.readString();
                    case T_LONG -> in.readVarLong(false);
                    case T_INT -> in.readVarInt(false);
                    case T_DOUBLE -> in.readDouble();
                    case T_BOOLEAN -> in.readBoolean();
                    default -> throw new IllegalArgumentException("unknown env option value tag " + tag);
                };
                env.put(key, v);
            }
            int jars = count(in, "plugin jar urls");
            List<String> urls = new ArrayList<>(jars);
            for (int i = 0; i < jars; i++) {
                urls.add(required(in.readString(), "plugin jar url"));
            }
            int connectors = count(in, "connector jars");
            Set<ConnectorJarIdentifier> ids = new LinkedHashSet<>();
            for (int i = 0; i < connectors; i++) {
                ids.add(new ConnectorJarIdentifier(in.readVarLong(false), required(in.readString(), "type"),
                        required(in.readString(), "pluginName"), required(in.readString(), "storagePath"),
                        required(in.readString(), "fileName")));
            }
            return new JobImmutableInformation(jobId, jobName, savePoint, createTime, dag,
                    new JobConfig(configName, env), urls, ids);
        }

        private static int count(Input in, String what) {
            int n = in.readVarInt(true);
            if (n < 0 || n > in.limit() - in.position()) {
                throw new IllegalArgumentException("implausible count of " + what + ": " + n);
            }
            return n;
        }

        private static String required(String s, String what) {
            if (s == null) {
                throw new IllegalArgumentException(what + " is missing");
            }
            return s;
        }
    }
}
