package io.jobinfo.store.demo.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.esotericsoftware.kryo.io.Output;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import java.lang.management.ManagementFactory;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 23, fault class "hostile lengths", for the look-alike job's serializer: a payload of a few dozen bytes whose
 * string, array or collection headers claim a huge size fails with a {@link CodecException} naming the field, the
 * claimed and the available size, quickly and without allocating the claimed size. Before the fix every string
 * field ended in {@link OutOfMemoryError} (Kryo allocated the characters first).
 */
class HostileLengthsTest {

    private static final long ALLOCATION_BOUND = 4L << 20;
    private static final int HUGE_STRING = Integer.MAX_VALUE - 2; // about 2^31 characters
    private static final int HUGE_COUNT = 1 << 30;

    private final KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();

    /** Where the hostile length sits, what the message must name, and what it claims. */
    enum Field {
        JOB_NAME("jobName", HUGE_STRING + " characters"),
        LOGICAL_DAG("logical DAG length " + Integer.MAX_VALUE, "exceeds"),
        CONFIG_NAME("jobConfig.name", HUGE_STRING + " characters"),
        ENV_OPTION_COUNT("env options: " + HUGE_COUNT, "remain"),
        ENV_OPTION_KEY("env option key", HUGE_STRING + " characters"),
        ENV_OPTION_VALUE("env option 'parallelism'", HUGE_STRING + " characters"),
        PLUGIN_JAR_COUNT("plugin jar urls: " + HUGE_COUNT, "remain"),
        PLUGIN_JAR_URL("plugin jar url", HUGE_STRING + " characters"),
        CONNECTOR_COUNT("connector jars: " + HUGE_COUNT, "remain"),
        CONNECTOR_TYPE("connector jar type", HUGE_STRING + " characters"),
        CONNECTOR_FILE_NAME("connector jar fileName", HUGE_STRING + " characters");

        final String names;
        final String claims;

        Field(String names, String claims) {
            this.names = names;
            this.claims = claims;
        }
    }

    private static void hugeString(Output out) {
        out.writeVarIntFlag(true, HUGE_STRING + 1, true); // Kryo's UTF-8 header: characters + 1
    }

    /** A valid encoding up to {@code field}, whose length is replaced by a huge one; then a few stray bytes. */
    private static byte[] hostile(Field field) {
        Output out = new Output(256, -1);
        Consumer<String> str = s -> {
            if (field.name().equals(s)) {
                hugeString(out);
            } else {
                out.writeString("v");
            }
        };
        out.writeByte(1); // schema
        out.writeLong(42);
        str.accept("JOB_NAME");
        if (field != Field.JOB_NAME) {
            out.writeBoolean(false);
            out.writeLong(1_700_000_000_000L);
            out.writeVarInt(field == Field.LOGICAL_DAG ? Integer.MAX_VALUE : 2, true);
            if (field != Field.LOGICAL_DAG) {
                out.writeBytes(new byte[] {9, 9});
                str.accept("CONFIG_NAME");
                out.writeVarInt(field == Field.ENV_OPTION_COUNT ? HUGE_COUNT : 1, true);
                if (field != Field.ENV_OPTION_COUNT && field != Field.CONFIG_NAME) {
                    if (field == Field.ENV_OPTION_KEY) {
                        hugeString(out);
                    } else {
                        out.writeString("parallelism");
                        out.writeByte(1); // a string value
                        str.accept("ENV_OPTION_VALUE");
                    }
                }
                if (field.ordinal() > Field.ENV_OPTION_VALUE.ordinal()) {
                    out.writeVarInt(field == Field.PLUGIN_JAR_COUNT ? HUGE_COUNT : 1, true);
                    if (field != Field.PLUGIN_JAR_COUNT) {
                        str.accept("PLUGIN_JAR_URL");
                    }
                }
                if (field.ordinal() > Field.PLUGIN_JAR_URL.ordinal()) {
                    out.writeVarInt(field == Field.CONNECTOR_COUNT ? HUGE_COUNT : 1, true);
                    if (field != Field.CONNECTOR_COUNT) {
                        out.writeVarLong(5, false);
                        str.accept("CONNECTOR_TYPE");
                        out.writeString("plugin");
                        out.writeString("/path");
                        str.accept("CONNECTOR_FILE_NAME");
                    }
                }
            }
        }
        out.writeBytes(new byte[] {0x41, 0x42, 0x43});
        return out.toBytes();
    }

    @ParameterizedTest
    @EnumSource(Field.class)
    void aHugeLengthInAnyFieldFailsWithACodecExceptionNamingItInBoundedMemory(Field field) {
        byte[] payload = hostile(field);
        assertThat(payload.length).as("payload size").isLessThan(100);
        long before = allocatedBytes();
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            codec.decode(payload);
        } catch (Throwable t) {
            thrown = t;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        long allocated = allocatedBytes() - before;
        assertThat(thrown).as("decoded").isNotNull();
        assertThat(thrown).as("what decoding %d hostile bytes threw", payload.length)
                .isInstanceOf(CodecException.class);
        assertThat(thrown.getMessage()).contains("kryo-jobinfo-v1").contains(field.names).contains(field.claims);
        assertThat(allocated).as("bytes allocated decoding %d hostile bytes", payload.length)
                .isLessThan(ALLOCATION_BOUND);
        assertThat(millis).as("ms to refuse %d hostile bytes", payload.length).isLessThan(2_000);
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
