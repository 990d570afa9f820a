package io.jobinfo.store.build;

import io.jobinfo.store.service.RunningJobInfoRegistry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core jar is what an engine member loads: it must not name the demo model (which lives in
 * jobinfo-store-demo-model) and must run on Java 8. Checks the compiled main classes themselves.
 */
class CoreNamesNoDemoTypeTest {

    private static final Path CLASSES = Paths.get("target", "classes");

    private static List<Path> classFiles() throws IOException {
        assertThat(CLASSES.resolve("io/jobinfo/store/service/RunningJobInfoRegistry.class"))
                .as("run from the module directory after compile").exists();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(CLASSES)) {
            walk.filter(p -> p.toString().endsWith(".class")).forEach(files::add);
        }
        return files;
    }

    @Test
    void noMainClassNamesADemoOrModelType() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path file : classFiles()) {
            // class names sit in the constant pool as UTF-8 in internal form (io/jobinfo/store/demo/...)
            String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            for (String forbidden : new String[] {"io/jobinfo/store/demo", "io.jobinfo.store.demo",
                "io/jobinfo/store/model/", "JobImmutableInformation", "JobGenerator"}) {
                if (text.contains(forbidden)) {
                    offenders.add(CLASSES.relativize(file) + " names " + forbidden);
                }
            }
        }
        assertThat(offenders).isEmpty();
        assertThat(CLASSES.resolve("io/jobinfo/store/model")).doesNotExist();
    }

    @Test
    void everyMainClassIsJava8Bytecode() throws IOException {
        List<String> newer = new ArrayList<>();
        for (Path file : classFiles()) {
            try (InputStream in = Files.newInputStream(file); DataInputStream data = new DataInputStream(in)) {
                assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
                data.readUnsignedShort(); // minor
                int major = data.readUnsignedShort();
                if (major > 52) {
                    newer.add(CLASSES.relativize(file) + " has class file version " + major);
                }
            }
        }
        assertThat(newer).isEmpty();
    }
}
