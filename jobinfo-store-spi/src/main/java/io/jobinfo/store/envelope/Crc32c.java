package io.jobinfo.store.envelope;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.zip.Checksum;
import org.apache.commons.codec.digest.PureJavaCrc32C;

/**
 * CRC32C (Castagnoli) checksums on every Java version: on Java 9 and later the JDK's {@code java.util.zip.CRC32C}
 * (a hardware intrinsic), looked up once; on Java 8, which has none, commons-codec's pure-Java
 * {@link PureJavaCrc32C}. Both compute the same values, so blobs written on one are verified on the other.
 *
 * <p>Use only {@link Checksum#update(byte[], int, int)}, {@link Checksum#getValue()} and {@link Checksum#reset()}:
 * the other {@code update} methods do not exist on Java 8. Each returned instance is for one thread.
 */
public final class Crc32c {

    /** {@code new java.util.zip.CRC32C()} typed as {@code ()Checksum}; null on Java 8. */
    private static final MethodHandle JDK_CRC32C = findJdkCrc32c();

    private Crc32c() {
    }

    /** A new CRC32C checksum: the JDK's when the JVM has one, else the pure-Java one. Never fails. */
    public static Checksum create() {
        MethodHandle jdk = JDK_CRC32C;
        if (jdk != null) {
            try {
                return (Checksum) jdk.invokeExact();
            } catch (Throwable t) {
                // a public no-argument constructor of the JDK does not fail; if it ever does, stay correct
                return new PureJavaCrc32C();
            }
        }
        return new PureJavaCrc32C();
    }

    /** A new pure-Java CRC32C checksum, whatever the JVM (what {@link #create()} returns on Java 8). */
    public static Checksum pureJava() {
        return new PureJavaCrc32C();
    }

    /** Whether {@link #create()} returns the JDK's implementation (Java 9 and later). */
    public static boolean usesJdk() {
        return JDK_CRC32C != null;
    }

    /** The CRC32C of {@code length} bytes of {@code bytes} from {@code offset}, as an int. */
    public static int of(byte[] bytes, int offset, int length) {
        Checksum crc = create();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    private static MethodHandle findJdkCrc32c() {
        try {
            Class<?> type = Class.forName("java.util.zip.CRC32C");
            return MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class))
                    .asType(MethodType.methodType(Checksum.class));
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException | LinkageError e) {
            return null; // Java 8
        }
    }
}
