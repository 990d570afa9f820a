package io.jobinfo.store.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one duration syntax of YAML keys and command-line options. */
class DurationsTest {

    @Test
    void readsTheDocumentedForms() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Durations.parse(" 10 S ")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(Durations.parse(0)).isEqualTo(Duration.ZERO);
        assertThat(Durations.parse("PT30M")).isEqualTo(Duration.ofMinutes(30)); // files of earlier versions
        assertThat(Durations.parse("pt1h")).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void formatReadsBack() {
        for (Duration d : List.of(Duration.ZERO, Duration.ofMillis(1), Duration.ofSeconds(59), Duration.ofMinutes(90),
                Duration.ofDays(3).plusHours(4).plusMinutes(5).plusSeconds(6).plusMillis(7))) {
            assertThat(Durations.parse(Durations.format(d))).as(Durations.format(d)).isEqualTo(d);
        }
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
    }

    @Test
    void refusesWhatIsNotADurationNamingTheForms() {
        assertThatThrownBy(() -> Durations.parse("soon")).hasMessage("'soon' is not a duration; write it like 500ms,"
                + " 30s, 5m, 1h or 2d");
        assertThatThrownBy(() -> Durations.parse("90")).hasMessageContaining("'90' has no unit");
        assertThatThrownBy(() -> Durations.parse("-5s")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> Durations.parse("-PT5S")).hasMessageContaining("negative");
        assertThatThrownBy(() -> Durations.parse("999999999999999999d")).hasMessageContaining("too large");
        assertThatThrownBy(() -> Durations.parse("")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> Durations.parse("x".repeat(5000))).satisfies(e -> assertThat(e.getMessage())
                .hasSizeLessThan(120));
    }
}
