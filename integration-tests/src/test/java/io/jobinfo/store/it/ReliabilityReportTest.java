package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.testing.ReliabilitySection;
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

    @Test
    void publishingKeepsThePublishedSoakSectionAndTheSoakPublisherReplacesOnlyIt(@TempDir Path dir) throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs")).resolve("reliability.md");
        String emptySoak = ReliabilitySection.SOAK.begin() + ": placeholder -->\nnone yet\n"
                + ReliabilitySection.SOAK.end() + "\n" + ReliabilitySection.ENGINE.begin() + ": placeholder -->\n"
                + "no engine trials yet\n" + ReliabilitySection.ENGINE.end();
        Path complete = dir.resolve(PublishReliabilityReport.COMPLETE_NAME);
        Files.writeString(complete, "# Reliability\nrun 1\n" + emptySoak + "\n");
        PublishReliabilityReport.publish(complete, docs);
        assertThat(Files.readString(docs)).contains("run 1", "none yet");

        Path soak = Files.createDirectories(dir.resolve("soak"));
        assertThatThrownBy(() -> PublishSoakReport.publish(soak, docs.getParent()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("run the soak first");
        Files.writeString(soak.resolve("soak.md"), "## Soak\n| figure | value |\n");
        Files.write(soak.resolve("soak.png"), new byte[] {1, 2, 3});
        PublishSoakReport.publish(soak, docs.getParent());
        String page = Files.readString(docs);
        assertThat(page).startsWith("# Reliability\nrun 1\n").contains("## Soak\n| figure | value |")
                .doesNotContain("none yet").endsWith(ReliabilitySection.ENGINE.end() + "\n");
        assertThat(Files.readAllBytes(docs.getParent().resolve("reliability").resolve("soak.png")))
                .containsExactly(1, 2, 3);

        ReliabilitySection.ENGINE.publish(docs, "## Engine trials\n| trials | 20 |\n");
        assertThat(Files.readString(docs)).contains("## Soak\n| figure | value |", "## Engine trials\n| trials | 20 |")
                .doesNotContain("no engine trials yet");

        // a new reliability report replaces everything but the soak and engine sections
        Files.writeString(complete, "# Reliability\nrun 2\n" + emptySoak + "\n");
        PublishReliabilityReport.publish(complete, docs);
        assertThat(Files.readString(docs)).contains("run 2", "## Soak\n| figure | value |",
                        "## Engine trials\n| trials | 20 |")
                .doesNotContain("run 1", "none yet", "no engine trials yet");

        // a report without the engine section (an older template) keeps the published one, appended
        Files.writeString(complete, "# Reliability\nrun 3\n" + ReliabilitySection.SOAK.wrap("empty") + "\n");
        PublishReliabilityReport.publish(complete, docs);
        assertThat(Files.readString(docs)).contains("run 3", "## Soak\n| figure | value |")
                .endsWith("## Engine trials\n| trials | 20 |\n" + ReliabilitySection.ENGINE.end() + "\n");
    }
}
