package io.jobinfo.store.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.Checksum;
import org.junit.jupiter.api.Test;

/**
 * The JDK's CRC32C (used on Java 9+) and the pure-Java one (used on Java 8) must agree on every input, or a blob
 * written on one JVM would fail verification on the other.
 */
class Crc32cTest {

    private static long crc(Checksum c, byte[] bytes, int off, int len) {
        c.update(bytes, off, len);
        return c.getValue();
    }

    @Test
    void thisJvmUsesTheJdkImplementation() {
        assertThat(Crc32c.usesJdk()).isTrue();
        assertThat(Crc32c.create().getClass().getName()).isEqualTo("java.util.zip.CRC32C");
        assertThat(Crc32c.pureJava().getClass().getName())
                .isEqualTo("org.apache.commons.codec.digest.PureJavaCrc32C");
    }

    @Test
    void knownVectors() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        byte[] zeros = new byte[32];
        byte[] ones = new byte[32];
        java.util.Arrays.fill(ones, (byte) 0xFF);
        byte[] ascending = new byte[32];
        for (int i = 0; i < 32; i++) {
            ascending[i] = (byte) i;
        }
        for (Checksum c : new Checksum[] {Crc32c.create(), Crc32c.pureJava()}) {
            // the CRC-32C check value, and the test vectors of RFC 3720 (iSCSI), appendix B.4
            assertThat(crc(c, check, 0, check.length)).as(c.getClass().getName()).isEqualTo(0xE3069283L);
            c.reset();
            assertThat(crc(c, zeros, 0, 32)).isEqualTo(0x8A9136AAL);
            c.reset();
            assertThat(crc(c, ones, 0, 32)).isEqualTo(0x62A8AB43L);
            c.reset();
            assertThat(crc(c, ascending, 0, 32)).isEqualTo(0x46DD794EL);
            c.reset();
            assertThat(crc(c, check, 0, 0)).isZero();
        }
        assertThat(Crc32c.of(check, 0, check.length)).isEqualTo(0xE3069283);
    }

    @Test
    void bothImplementationsAgreeOnRandomDataSlicesAndSplitUpdates() {
        SplittableRandom random = new SplittableRandom(20261201);
        for (int round = 0; round < 500; round++) {
            byte[] data = new byte[random.nextInt(1, 70_000)];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) random.nextInt(256);
            }
            int off = random.nextInt(data.length);
            int len = random.nextInt(data.length - off + 1);
            long jdk = crc(Crc32c.create(), data, off, len);
            assertThat(crc(Crc32c.pureJava(), data, off, len)).as("round %d", round).isEqualTo(jdk);
            // in two updates, split anywhere: the same value
            int split = len == 0 ? 0 : random.nextInt(len + 1);
            Checksum pure = Crc32c.pureJava();
            pure.update(data, off, split);
            pure.update(data, off + split, len - split);
            assertThat(pure.getValue()).isEqualTo(jdk);
        }
    }
}
