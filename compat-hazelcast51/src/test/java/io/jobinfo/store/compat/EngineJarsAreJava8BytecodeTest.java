package io.jobinfo.store.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, item 5: every class in the BUILT engine jars (the jar files the reactor packaged, resolved by the
 * dependency plugin and copied to {@code target/engine-jars}; never {@code target/classes}) is Java 8 bytecode, class file major version 52 or lower:
 * SeaTunnel 2.3.x runs on Java 8 (its image is {@code openjdk:8}), and a plug-in jar with newer classes does not load
 * there. The module builds after these jars, so {@code mvn verify} checks what would ship.
 */
class EngineJarsAreJava8BytecodeTest {

    /** The jars that load inside an engine member, and the demo model (for engines that bring the look-alike). */
    static final List<String> ENGINE_JARS = Arrays.asList("jobinfo-store-spi", "jobinfo-store-core",
            "jobinfo-store-local",
            "jobinfo-store-hdfs", "jobinfo-store-s3", "jobinfo-store-seatunnel", "jobinfo-store-demo-model");

    static final int JAVA_8 = 52;

    @Test
    void everyClassOfEveryEngineJarIsJava8Bytecode() throws IOException {
        List<String> tooNew = new ArrayList<>();
        for (String artifact : ENGINE_JARS) {
            File jar = builtJar(artifact);
            int classes = 0;
            try (JarFile jf = new JarFile(jar)) {
                Enumeration<JarEntry> entries = jf.entries();
                while (entries.hasMoreElements()) {
                    JarEntry e = entries.nextElement();
                    if (!e.getName().endsWith(".class")) {
                        continue;
                    }
                    classes++;
                    int major = majorVersion(jf, e);
                    if (major > JAVA_8) {
                        tooNew.add(jar.getName() + "!/" + e.getName() + ": class file version " + major
                                + " (Java " + (major - 44) + ")");
                    }
                }
            }
            assertThat(classes).as("classes in %s", jar).isPositive();
        }
        assertThat(tooNew).as("classes newer than Java 8 (class file version 52) in the engine jars").isEmpty();
    }

    /**
     * The jar of {@code artifact} the reactor built, as the dependency plugin copied it (from the reactor, not from
     * {@code ~/.m2}) to {@code target/engine-jars}; fails when it is missing.
     */
    static File builtJar(String artifact) {
        String dir = System.getProperty("compat.engine.jars");
        assertThat(dir).as("system property compat.engine.jars (set by this module's surefire configuration)")
                .isNotNull();
        File[] found = new File(dir).listFiles((d, name) -> name.startsWith(artifact + "-")
                && name.endsWith(".jar") && name.length() > artifact.length() + 1
                && Character.isDigit(name.charAt(artifact.length() + 1)));
        if (found == null || found.length != 1 || !found[0].isFile()) {
            throw new AssertionError("no built jar of " + artifact + " in " + dir + "; run the reactor through the"
                    + " package phase (mvn -B verify), which packages it before this module");
        }
        return found[0];
    }

    private static int majorVersion(JarFile jf, JarEntry e) throws IOException {
        try (InputStream in = jf.getInputStream(e); DataInputStream d = new DataInputStream(in)) {
            int magic = d.readInt();
            if (magic != 0xCAFEBABE) {
                throw new AssertionError(jf.getName() + "!/" + e.getName() + " is not a class file");
            }
            d.readUnsignedShort(); // minor
            return d.readUnsignedShort();
        }
    }
}
