package io.jobinfo.store.codec.kryo;

import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.codec.CodecException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The generic Kryo codec with an engine's own class: here a small test value and its explicit serializer. */
class KryoJobInfoCodecTest {

    /** An engine's job description. */
    record Job(long id, String name, byte[] dag) {
        boolean sameAs(Job o) {
            return id == o.id && name.equals(o.name) && Arrays.equals(dag, o.dag);
        }
    }

    static final class JobSerializer extends Serializer<Job> {
        JobSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, Job job) {
            out.writeLong(job.id());
            out.writeString(job.name());
            out.writeVarInt(job.dag().length, true);
            out.writeBytes(job.dag());
        }

        @Override
        public Job read(Kryo kryo, Input in, Class<? extends Job> type) {
            long id = in.readLong();
            String name = in.readString();
            if (name == null) {
                throw new IllegalArgumentException("name is missing");
            }
            int length = in.readVarInt(true);
            if (length < 0 || length > in.limit() - in.position()) {
                throw new IllegalArgumentException("dag length " + length + " exceeds the payload");
            }
            return new Job(id, name, in.readBytes(length));
        }
    }

    /** A serializer that hands a nested object to Kryo: registration required refuses its class. */
    static final class NestedSerializer extends Serializer<Job> {
        @Override
        public void write(Kryo kryo, Output out, Job job) {
            kryo.writeClassAndObject(out, new ArrayList<>(List.of(job.name())));
        }

        @Override
        public Job read(Kryo kryo, Input in, Class<? extends Job> type) {
            Object nested = kryo.readClassAndObject(in);
            return new Job(0, String.valueOf(nested), new byte[0]);
        }
    }

    private final KryoJobInfoCodec<Job> codec = new KryoJobInfoCodec<>(Job.class, new JobSerializer(), 200);

    private static Job job(long id, int dagBytes) {
        byte[] dag = new byte[dagBytes];
        new java.util.Random(id).nextBytes(dag);
        return new Job(id, "job-" + id, dag);
    }

    @Test
    void roundTripsWithCodecIdOneAndTheValueClass() throws Exception {
        Job job = job(-42, 100_000);
        Job back = codec.decode(codec.encode(job));
        assertThat(back.sameAs(job)).isTrue();
        assertThat(codec.id()).isEqualTo(KryoJobInfoCodec.ID).isEqualTo(1);
        assertThat(codec.type()).isEqualTo(Job.class);
        assertThat(codec.name()).isEqualTo("kryo-jobinfo-v1");
    }

    @Test
    void encodingWithHeaderRoomEqualsThePlainEncodingWhateverTheSizeHint() throws Exception {
        Job job = job(31, 150_000);
        byte[] plain = codec.encode(job);
        KryoJobInfoCodec<Job> hinted = new KryoJobInfoCodec<>(Job.class, new JobSerializer(), 200,
                j -> j.dag().length + 64);
        for (KryoJobInfoCodec<Job> c : List.of(codec, hinted)) {
            EncodedPayload roomy = c.encode(job, EnvelopeHeader.LENGTH);
            assertThat(roomy.offset()).isEqualTo(EnvelopeHeader.LENGTH);
            assertThat(roomy.toByteArray()).isEqualTo(plain);
            assertThat(roomy.contentEquals(plain)).isTrue();
            EnvelopeHeader header = BlobEnvelope.wrapInPlace(31, c.id(), roomy);
            byte[] inPlace = Arrays.copyOf(roomy.buffer(), (int) header.blobLength());
            assertThat(inPlace).isEqualTo(BlobEnvelope.wrap(31, c.id(), plain));
        }
        // the default (copying) implementation of other codecs agrees
        JobInfoCodec<Job> viaDefault = new JobInfoCodec<>() {
            @Override public int id() { return codec.id(); }
            @Override public String name() { return "default"; }
            @Override public Class<Job> type() { return Job.class; }
            @Override public byte[] encode(Job value) { return codec.encode(value); }
            @Override public Job decode(byte[] payload) throws CodecException { return codec.decode(payload); }
        };
        assertThat(viaDefault.encode(job, 68).toByteArray()).isEqualTo(plain);
    }

    @Test
    void noClassNameOrRegistrationIdEntersTheEncoding() {
        Job job = new Job(5, "n", new byte[0]);
        byte[] bytes = codec.encode(job);
        // exactly what the serializer writes, nothing of Kryo's own (no class name, no registration id)
        Output alone = new Output(64);
        new JobSerializer().write(null, alone, job);
        assertThat(bytes).isEqualTo(alone.toBytes());
        String text = new String(codec.encode(job(2, 10_000)), StandardCharsets.ISO_8859_1);
        assertThat(text).doesNotContain("KryoJobInfoCodecTest").doesNotContain("io.jobinfo");
    }

    @Test
    void aNestedObjectOfAnUnregisteredClassIsRefused() {
        KryoJobInfoCodec<Job> nested = new KryoJobInfoCodec<>(Job.class, new NestedSerializer(), 200);
        assertThatThrownBy(() -> nested.encode(new Job(1, "x", new byte[0])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not registered: java.util.ArrayList");
        // a class id in the bytes is only looked up in the registration table, never resolved by name
        byte[] unknownClassId = {(byte) 0x7F};
        assertThatThrownBy(() -> nested.decode(unknownClassId)).isInstanceOf(CodecException.class)
                .hasMessageContaining("kryo-jobinfo-v1");
    }

    @Test
    void truncatedOrLongerBytesFailWithACodecException() {
        byte[] bytes = codec.encode(job(2, 10_000));
        for (int cut : new int[] {0, 1, 7, 9, bytes.length / 2, bytes.length - 1}) {
            assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, cut))).as("cut at %d", cut)
                    .isInstanceOf(CodecException.class).hasMessageContaining("kryo-jobinfo-v1");
        }
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 3);
        assertThatThrownBy(() -> codec.decode(longer)).isInstanceOf(CodecException.class)
                .hasMessageContaining("3 unexpected bytes");
    }

    @Test
    void registrationIdsOfKryoItselfAndNullArgumentsAreRefused() {
        assertThatThrownBy(() -> new KryoJobInfoCodec<>(Job.class, new JobSerializer(), 9))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("registration id 9")
                .hasMessageContaining(Job.class.getName()).hasMessageContaining("10 or more");
        assertThatThrownBy(() -> new KryoJobInfoCodec<>(null, new JobSerializer(), 100))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("type");
        assertThatThrownBy(() -> new KryoJobInfoCodec<>(Job.class, null, 100))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("serializer");
        assertThatThrownBy(() -> new KryoJobInfoCodec<>(Job.class, new JobSerializer(), 100, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("sizeHint");
    }

    @Test
    void isSafeToShareAcrossThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        Job job = job(seed * 1000L + i, 1_000 + i * 50);
                        if (!codec.decode(codec.encode(job)).sameAs(job)) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
