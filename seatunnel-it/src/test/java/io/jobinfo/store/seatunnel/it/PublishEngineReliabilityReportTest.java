package io.jobinfo.store.seatunnel.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.testing.ReliabilitySection;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublishEngineReliabilityReportTest {

    @Test
    void replacesOnlyTheEngineSectionAndRefusesWithoutAResult(@TempDir Path dir) throws Exception {
        Path page = dir.resolve("reliability.md");
        String before = "# Reliability\nrows\n" + ReliabilitySection.SOAK.wrap("## Soak\nflat") + "\n"
                + ReliabilitySection.ENGINE.wrap("none yet") + "\ntail\n";
        Files.writeString(page, before);
        Path result = dir.resolve("reliability-engine.md");

        assertThatThrownBy(() -> PublishEngineReliabilityReport.publish(result, page))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("run the crash trials first");
        assertThat(Files.readString(page)).isEqualTo(before);

        Files.writeString(result, "# Crash trials on the real engine\n\n| scenario | trials |\n| kill | 20 |\n");
        PublishEngineReliabilityReport.publish(result, page);
        String after = Files.readString(page);
        assertThat(after).startsWith("# Reliability\nrows\n").contains("## Soak\nflat")
                .contains("## Crash trials on the real engine\n\n| scenario | trials |\n| kill | 20 |")
                .doesNotContain("none yet").endsWith(ReliabilitySection.ENGINE.end() + "\ntail\n");
    }

    @Test
    void aPageWithoutAnEngineSectionIsLeftAlone(@TempDir Path dir) throws Exception {
        Path page = Files.writeString(dir.resolve("reliability.md"), "# old page\n");
        Path result = Files.writeString(dir.resolve("reliability-engine.md"), "# trials\n");
        assertThatThrownBy(() -> PublishEngineReliabilityReport.publish(result, page))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has no engine section");
        assertThat(Files.readString(page)).isEqualTo("# old page\n");
    }
}
