package io.jobinfo.store.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link SetOnce}: a second set of a property fails naming the builder, the property and the value it has; plain
 * settings are shown as they are, any other object only by its type (never by its {@code toString}, which could hold
 * anything); a value refused before it is set does not count as set.
 */
class SetOnceTest {

    @Test
    void aSecondSetNamesTheBuilderThePropertyAndTheValueItHas() {
        SetOnce properties = new SetOnce("Some.Builder");
        assertThat(properties.set("restoreOutageWait", Duration.ofMinutes(10))).isEqualTo(Duration.ofMinutes(10));
        properties.set("other", 1);
        assertThatThrownBy(() -> properties.set("restoreOutageWait", Duration.ofMinutes(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Some.Builder: restoreOutageWait is already set to PT10M; each property can be set once"
                        + " (set it in one place)");
    }

    @Test
    void aNullValueCountsAsSet() {
        SetOnce properties = new SetOnce("B");
        properties.set("name", null);
        assertThatThrownBy(() -> properties.set("name", "x")).hasMessageContaining("name is already set to null;");
    }

    @Test
    void plainSettingsAreShownAndOtherObjectsOnlyByTheirType() {
        assertThat(SetOnce.shown("jobs")).isEqualTo("'jobs'");
        assertThat(SetOnce.shown(42L)).isEqualTo("42");
        assertThat(SetOnce.shown(true)).isEqualTo("true");
        assertThat(SetOnce.shown(TimeUnit.SECONDS)).isEqualTo("SECONDS");
        assertThat(SetOnce.shown(Instant.EPOCH)).isEqualTo("1970-01-01T00:00:00Z");
        assertThat(SetOnce.shown(Arrays.asList(1, 2, 3))).isEqualTo("[1, 2, 3]");
        assertThat(SetOnce.shown(Collections.singletonList(new Object()))).isEqualTo("a SingletonList");
        Object secretHolder = new Object() {
            @Override
            public String toString() {
                return "password=hunter2";
            }
        };
        assertThat(SetOnce.shown(secretHolder)).startsWith("a ").doesNotContain("hunter2");
        assertThat(SetOnce.shown(new StringBuilder())).isEqualTo("''");
        char[] longText = new char[200];
        Arrays.fill(longText, 'x');
        assertThat(SetOnce.shown(new String(longText))).hasSize(80 + 3).endsWith("...");
    }

    @Test
    void aValueOutOfRangeNamesTheSettingWhatItMayBeAndWhatItWasGiven() {
        assertThat(SetOnce.within("copies", 7, 1, 7)).isEqualTo(7);
        assertThatThrownBy(() -> SetOnce.within("copies", 0, 1, 7)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("copies must be 1..7, not 0");
    }
}
