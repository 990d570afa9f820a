package io.jobinfo.store.codec.kryo;

import io.jobinfo.store.codec.CodecException;

import static org.assertj.core.api.Assertions.assertThat;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.lang.management.ManagementFactory;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 23, fault class "hostile lengths", for the Kryo codec: a payload of a few bytes whose length headers claim a
 * huge string or array fails with a {@link CodecException} that says what was claimed and what is left, quickly and
 * without allocating the claimed size. Before the fix, Kryo's {@code Input} allocated first: a 15-byte payload threw
 * {@link OutOfMemoryError} straight through {@code decode}.
 */
class KryoHostileLengthsTest {

    /** Most a hostile decode may allocate on the test thread. */
    static final long ALLOCATION_BOUND = 4L << 20;

    /** What one probe value holds: each kind is read with the matching {@link Input} method. */
    enum Kind {
        STRING, STRING_BUILDER, BYTES, INTS, INTS_VAR, LONGS, LONGS_VAR, FLOATS, DOUBLES, SHORTS, CHARS, BOOLEANS
    }

    /** An engine value that holds one string or array after a job id, as an engine's serializer would read it. */
    static final class Probe {
        final long id;
        final Kind kind;
        final Object value;

        Probe(long id, Kind kind, Object value) {
            this.id = id;
            this.kind = kind;
            this.value = value;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Probe)) {
                return false;
            }
            Probe p = (Probe) o;
            return id == p.id && kind == p.kind && Objects.deepEquals(normal(value), normal(p.value));
        }

        private static Object normal(Object v) {
            return v instanceof StringBuilder ? v.toString() : v;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(id);
        }
    }

    /** Writes kind, id, then a length and the elements; reads them back with Input's own methods. */
    static final class ProbeSerializer extends Serializer<Probe> {
        ProbeSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, Probe p) {
            out.writeByte(p.kind.ordinal());
            out.writeLong(p.id);
            if (p.kind == Kind.STRING || p.kind == Kind.STRING_BUILDER) {
                out.writeString(p.value == null ? null : p.value.toString());
                return;
            }
            int n = java.lang.reflect.Array.getLength(p.value);
            out.writeVarInt(n, true);
            switch (p.kind) {
                case BYTES: out.writeBytes((byte[]) p.value); break;
                case INTS: out.writeInts((int[]) p.value, 0, n); break;
                case INTS_VAR: out.writeInts((int[]) p.value, 0, n, true); break;
                case LONGS: out.writeLongs((long[]) p.value, 0, n); break;
                case LONGS_VAR: out.writeLongs((long[]) p.value, 0, n, true); break;
                case FLOATS: out.writeFloats((float[]) p.value, 0, n); break;
                case DOUBLES: out.writeDoubles((double[]) p.value, 0, n); break;
                case SHORTS: out.writeShorts((short[]) p.value, 0, n); break;
                case CHARS: out.writeChars((char[]) p.value, 0, n); break;
                case BOOLEANS: out.writeBooleans((boolean[]) p.value, 0, n); break;
                default: throw new IllegalArgumentException(p.kind.name());
            }
        }

        @Override
        public Probe read(Kryo kryo, Input in, Class<? extends Probe> type) {
            Kind kind = Kind.values()[in.readByte()];
            long id = in.readLong();
            switch (kind) {
                case STRING: return new Probe(id, kind, in.readString());
                case STRING_BUILDER: return new Probe(id, kind, in.readStringBuilder());
                default: break;
            }
            int n = in.readVarInt(true); // an engine serializer that trusts the length: the Input must not
            switch (kind) {
                case BYTES: return new Probe(id, kind, in.readBytes(n));
                case INTS: return new Probe(id, kind, in.readInts(n));
                case INTS_VAR: return new Probe(id, kind, in.readInts(n, true));
                case LONGS: return new Probe(id, kind, in.readLongs(n));
                case LONGS_VAR: return new Probe(id, kind, in.readLongs(n, true));
                case FLOATS: return new Probe(id, kind, in.readFloats(n));
                case DOUBLES: return new Probe(id, kind, in.readDoubles(n));
                case SHORTS: return new Probe(id, kind, in.readShorts(n));
                case CHARS: return new Probe(id, kind, in.readChars(n));
                case BOOLEANS: return new Probe(id, kind, in.readBooleans(n));
                default: throw new IllegalArgumentException(kind.name());
            }
        }
    }

    private final KryoJobInfoCodec<Probe> codec = new KryoJobInfoCodec<>(Probe.class, new ProbeSerializer(), 201);

    /** Kind byte, job id, then {@code header} (a length claiming far more than follows), then two stray bytes. */
    private static byte[] hostile(Kind kind, long claimed) {
        Output out = new Output(32);
        out.writeByte(kind.ordinal());
        out.writeLong(7);
        if (kind == Kind.STRING || kind == Kind.STRING_BUILDER) {
            out.writeVarIntFlag(true, (int) (claimed + 1), true); // Kryo's UTF-8 string header: characters + 1
        } else {
            out.writeVarInt((int) claimed, true);
        }
        out.writeByte(0x41);
        out.writeByte(0x42);
        return out.toBytes();
    }

    /** The case: job id, a UTF-8 string header claiming 2^31 - 2 characters, two bytes; 15 in all. */
    @Test
    void aFifteenBytePayloadClaimingATwoGigacharStringFailsClearlyInBoundedMemory() {
        KryoJobInfoCodec<KryoJobInfoCodecTest.Job> jobs = new KryoJobInfoCodec<>(KryoJobInfoCodecTest.Job.class,
                new KryoJobInfoCodecTest.JobSerializer(), 200);
        Output out = new Output(32);
        out.writeLong(7);
        out.writeVarIntFlag(true, Integer.MAX_VALUE, true);
        out.writeByte(0x41);
        out.writeByte(0x42);
        byte[] payload = out.toBytes();
        assertThat(payload).hasSize(15);

        Throwable t = measured(payload.length, () -> jobs.decode(payload));
        assertThat(t).isInstanceOf(CodecException.class);
        assertThat(t.getMessage()).contains("kryo-jobinfo-v1").contains("string at offset 8")
                .contains("claims " + (Integer.MAX_VALUE - 1L) + " characters").contains("only 2 bytes remain");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void everyHugeLengthFailsWithACodecExceptionWithoutAllocatingIt(Kind kind) {
        for (long claimed : new long[] {1L << 30, Integer.MAX_VALUE - 8L, 100_000}) {
            if (kind == Kind.STRING || kind == Kind.STRING_BUILDER) {
                claimed = Math.min(claimed, Integer.MAX_VALUE - 2L);
            }
            Throwable t = decodeMeasured(hostile(kind, claimed));
            assertThat(t).as("%s claiming %d", kind, claimed).isInstanceOf(CodecException.class);
            assertThat(t.getMessage()).as("%s claiming %d", kind, claimed).contains("claims " + claimed)
                    .contains("only 2 bytes remain");
        }
    }

    @Test
    void aNegativeLengthIsRefusedToo() {
        Throwable t = decodeMeasured(hostile(Kind.BYTES, 0xFFFFFFFFL));
        assertThat(t).isInstanceOf(CodecException.class).hasMessageContaining("negative length -1");
        Throwable s = decodeMeasured(hostile(Kind.STRING, 0xFFFFFFFEL)); // header 0xFFFFFFFF: 2^32 - 2 characters
        assertThat(s).isInstanceOf(CodecException.class).hasMessageContaining("claims 4294967294 characters");
    }

    /** The bound is exact: values that use all their bytes still decode, including multi-byte characters. */
    @Test
    void honestValuesOfEveryKindStillRoundTrip() throws Exception {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            big.append((char) ('a' + i % 26)).append(i % 7 == 0 ? "\u00e9\u2713" : "");
        }
        Object[] values = {big.toString(), new StringBuilder("\u4e2d\u6587 job \u00e9"), new byte[] {1, 2, 3},
            new int[] {1, -1, Integer.MAX_VALUE}, new int[] {0, 5, 1 << 29}, new long[] {Long.MIN_VALUE, 3},
            new long[] {1, 1L << 40}, new float[] {1.5f}, new double[] {2.5, -0.0}, new short[] {7, -7},
            new char[] {'\u2713', 'x'}, new boolean[] {true, false, true}};
        Kind[] kinds = Kind.values();
        for (int i = 0; i < kinds.length; i++) {
            Probe p = new Probe(i, kinds[i], values[i]);
            assertThat(codec.decode(codec.encode(p))).as(kinds[i].name()).isEqualTo(p);
        }
        assertThat(codec.decode(codec.encode(new Probe(1, Kind.STRING, "")))).isEqualTo(new Probe(1, Kind.STRING, ""));
        assertThat(codec.decode(codec.encode(new Probe(1, Kind.STRING, null))))
                .isEqualTo(new Probe(1, Kind.STRING, null));
        assertThat(codec.decode(codec.encode(new Probe(1, Kind.BYTES, new byte[0]))))
                .isEqualTo(new Probe(1, Kind.BYTES, new byte[0]));
    }

    private Throwable decodeMeasured(byte[] payload) {
        return measured(payload.length, () -> codec.decode(payload));
    }

    /** A decode of hostile bytes, run on this thread. */
    interface Decode {
        void run() throws Exception;
    }

    /**
     * Runs {@code decode} on this thread and returns what it threw, after checking that it did throw, not an
     * {@link Error}, within 2 s and allocating less than {@link #ALLOCATION_BOUND} bytes.
     */
    static Throwable measured(int length, Decode decode) {
        long before = allocatedBytes();
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            decode.run();
        } catch (Throwable t) {
            thrown = t;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        long allocated = allocatedBytes() - before;
        assertThat(thrown).as("decoding %d hostile bytes returned a value", length).isNotNull();
        assertThat(thrown).as("decoding %d hostile bytes", length).isNotInstanceOf(Error.class);
        assertThat(allocated).as("bytes allocated decoding %d hostile bytes (%s)", length, thrown)
                .isLessThan(ALLOCATION_BOUND);
        assertThat(millis).as("ms to refuse %d hostile bytes", length).isLessThan(2_000);
        return thrown;
    }

    static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
