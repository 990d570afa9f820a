package io.jobinfo.store.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The YAML reader of the configuration: what it refuses and that its messages never quote the file. */
class ConfigYamlTest {

    private static final String SECRET = "wJalrXUtnFEMI-K7MDENG-secret";
    /** The documented limit, 1 MiB (ConfigYaml.MAX_BYTES). */
    private static final int MAX = 1 << 20;

    private static InvalidConfigurationException refused(String yaml) {
        try {
            JobInfoStorageConfig.fromYaml(yaml);
        } catch (InvalidConfigurationException e) {
            assertThat(e.getMessage()).doesNotContain(SECRET).doesNotContain("wJalr");
            assertThat(e.problems()).hasSize(1);
            return e;
        }
        throw new AssertionError("accepted: " + yaml);
    }

    @Test
    void duplicateKeysAreAnErrorNamingTheKeyAndLine() {
        assertThat(refused("jobinfo-storage:\n  type: local\n  namespace: /a\n  namespace: /b\n").problems().get(0))
                .contains("duplicate key namespace").contains("line 4, column 3");
        assertThat(refused("jobinfo-storage:\n  type: s3\n  namespace: ns\n  plugin-config:\n    s3.secret-key: "
                + SECRET + "\n    s3.secret-key: " + SECRET + "2\n").problems().get(0))
                .contains("duplicate key s3.secret-key");
    }

    @Test
    void aSyntaxErrorOnASecretsLineNamesTheLineButNotItsContent() {
        assertThat(refused("jobinfo-storage:\n  type: s3\n  namespace: ns\n  plugin-config:\n    s3.bucket: b\n"
                + "    s3.secret-key: \"" + SECRET + "\n").problems().get(0))
                .contains("not valid YAML").contains("line 6").contains("the line is not shown");
        assertThat(refused("jobinfo-storage:\n  plugin-config:\n    s3.secret-key: '" + SECRET + "\n    x: 1\n")
                .problems().get(0)).contains("line ");
        assertThat(refused("jobinfo-storage:\n  plugin-config:\n    s3.secret-key: " + SECRET + ": nested\n")
                .problems().get(0)).contains("line 3");
        assertThat(refused("jobinfo-storage:\n  plugin-config:\n    s3.secret-key: \"" + SECRET + "\\q\"\n")
                .problems().get(0)).contains("line 3");
    }

    @Test
    void tagsAreRefusedAndNoClassIsLoaded() {
        assertThat(refused("jobinfo-storage: !!java.lang.ProcessBuilder [\"true\"]\n").problems().get(0))
                .contains("the tag !!java.lang.ProcessBuilder is not allowed").contains("line 1");
        assertThat(refused("jobinfo-storage:\n  type: local\n  namespace: !!javax.script.ScriptEngineManager"
                + " [!!java.net.URLClassLoader [[!!java.net.URL [\"http://127.0.0.1:1/\"]]]]\n").problems().get(0))
                .contains("is not allowed").contains("line 3");
        assertThat(refused("jobinfo-storage:\n  type: !custom local\n  namespace: /a\n").problems().get(0))
                .contains("not valid YAML");
    }

    @Test
    void emptyCommentsListsAndSeveralDocumentsAreRefused() {
        assertThat(refused("").problems().get(0)).contains("is empty");
        assertThat(refused("# nothing yet\n\n# still nothing\n").problems().get(0)).contains("is empty");
        assertThat(refused("- type: local\n").problems().get(0)).contains("must be a mapping");
        assertThat(refused("local\n").problems().get(0)).contains("must be a mapping");
        assertThat(refused("jobinfo-storage: {type: local, namespace: /a}\n---\nother: 1\n").problems().get(0))
                .contains("2 documents");
    }

    @Test
    void aLargeFileIsRefusedBeforeItIsParsed(@TempDir Path dir) throws Exception {
        StringBuilder big = new StringBuilder("jobinfo-storage:\n  type: local\n  namespace: /a\n");
        while (big.length() <= MAX) {
            big.append("# ").append("padding ".repeat(10)).append('\n');
        }
        assertThat(refused(big.toString()).problems().get(0)).contains("larger than 1 MiB");
        Path file = Files.writeString(dir.resolve("big.yaml"), big);
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml(file))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("bytes, more than the 1 MiB");

        // a stream that never ends is cut after the limit, not read to the end
        AtomicLong served = new AtomicLong();
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                served.incrementAndGet();
                return '#';
            }
        };
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml(endless))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("larger than 1 MiB");
        assertThat(served.get()).isLessThanOrEqualTo(MAX + 8192L);
    }

    @Test
    void aFileMustBeUtf8(@TempDir Path dir) throws Exception {
        Path latin1 = Files.write(dir.resolve("latin1.yaml"), "jobinfo-storage:\n  type: local\n  namespace: /caf\u00e9\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml(latin1))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("not UTF-8");
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml(new ByteArrayInputStream(Files.readAllBytes(latin1))))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("not UTF-8");
    }

    @Test
    void aValidFileStillReads(@TempDir Path dir) throws Exception {
        Path ok = Files.writeString(dir.resolve("ok.yaml"), "# the engine's file\nseatunnel:\n  engine:\n"
                + "    jobinfo-storage:\n      type: local\n      namespace: /var/lib/jobinfo\n"
                + "      cache: {expire-after-access: 45m}\n");
        JobInfoStorageConfig c = JobInfoStorageConfig.fromYaml(ok);
        assertThat(c.type()).isEqualTo("local");
        assertThat(c.cache().expireAfterAccess()).isEqualTo(Duration.ofMinutes(45));
    }
}
