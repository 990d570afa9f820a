package io.jobinfo.store.testing;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import java.util.Arrays;

/**
 * A job description for core's own tests: an id, a name and an opaque DAG, encoded with the generic Kryo codec (the
 * demo's richer look-alike job lives in jobinfo-store-demo-model, which depends on core). Made by
 * {@link TestJobGenerator}; equal when all three are.
 */
public final class TestJob {

    /** The Kryo registration id of this class. */
    public static final int REGISTRATION_ID = 101;

    private final long jobId;
    private final String name;
    private final byte[] dag;

    public TestJob(long jobId, String name, byte[] dag) {
        this.jobId = jobId;
        this.name = name;
        this.dag = dag.clone();
    }

    /** The codec of this class, codec id {@link KryoJobInfoCodec#ID}. Thread-safe. */
    public static KryoJobInfoCodec<TestJob> codec() {
        return new KryoJobInfoCodec<>(TestJob.class, new TestJobSerializer(), REGISTRATION_ID,
                job -> job.dag.length + 256);
    }

    public long jobId() {
        return jobId;
    }

    public String name() {
        return name;
    }

    public int dagLength() {
        return dag.length;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TestJob)) {
            return false;
        }
        TestJob j = (TestJob) o;
        return jobId == j.jobId && name.equals(j.name) && Arrays.equals(dag, j.dag);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(jobId) + name.hashCode()) + Arrays.hashCode(dag);
    }

    @Override
    public String toString() {
        return "TestJob{jobId=" + jobId + ", name=" + name + ", dag=" + dag.length + " bytes}";
    }

    private static final class TestJobSerializer extends Serializer<TestJob> {

        TestJobSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, TestJob job) {
            out.writeLong(job.jobId);
            out.writeString(job.name);
            out.writeVarInt(job.dag.length, true);
            out.writeBytes(job.dag);
        }

        @Override
        public TestJob read(Kryo kryo, Input in, Class<? extends TestJob> type) {
            long jobId = in.readLong();
            String name = in.readString();
            int length = in.readVarInt(true);
            if (name == null || length < 0 || length > in.limit() - in.position()) {
                throw new IllegalArgumentException("not a test job: name " + name + ", dag length " + length);
            }
            return new TestJob(jobId, name, in.readBytes(length));
        }
    }
}
