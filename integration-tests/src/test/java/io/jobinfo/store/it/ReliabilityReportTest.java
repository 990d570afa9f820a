package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The suite writes its report under target/ only; publishing to docs/ is a separate, explicit step. */
class ReliabilityReportTest {

    private static final Path DOCS = Path.of("..", "docs", "reliability.md");

    @Test
    void reportingEveryGroupWritesUnderTargetAndNeverTheTrackedPage() throws Exception {
        byte[] before = Files.exists(DOCS) ? Files.readAllBytes(DOCS) : null;
        try {
            for (String group : ReliabilityReport.GROUPS) {
                ReliabilityReport.groupDone(group); // as each test class does when it ends; this one adds no rows
            }
            byte[] after = Files.exists(DOCS) ? Files.readAllBytes(DOCS) : null;
            assertThat(java.util.Arrays.equals(before, after)).as("docs/reliability.md untouched by the suite")
                    .isTrue();
            Path partial = Path.of("target", "reliability.md");
            assertThat(Files.readString(partial)).contains("# Reliability");
        } finally {
            if (before != null && !java.util.Arrays.equals(before, Files.readAllBytes(DOCS))) {
                Files.write(DOCS, before); // only reached when the suite wrote it (the bug this test catches)
            }
        }
    }

    @Test
    void publishingCopiesACompleteReportAndRefusesWithoutOne(@TempDir Path dir) throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs")).resolve("reliability.md");
        Files.writeString(docs, "old\n");
        Path complete = dir.resolve(PublishReliabilityReport.COMPLETE_NAME);

        assertThatThrownBy(() -> PublishReliabilityReport.publish(complete, docs))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("run the whole suite first");
        assertThat(Files.readString(docs)).isEqualTo("old\n");

        Files.writeString(complete, "# Reliability\nnew\n");
        PublishReliabilityReport.publish(complete, docs);
        assertThat(Files.readString(docs)).isEqualTo("# Reliability\nnew\n");
        try (var files = Files.list(docs.getParent())) {
            assertThat(files).containsExactly(docs);
        }
    }
}
