package io.jobinfo.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OptionDescriptionsTest {

    @Test
    void readsKeysInFileOrderJoiningIndentedLinesAndFillingPlaceholders() {
        Map<String, String> options = OptionDescriptions.load(OptionDescriptionsTest.class, "good-options.txt",
                Collections.singletonMap("N", 5));
        assertThat(options).containsExactly(
                Map.entry("first.key", "one line and a second, default 5"),
                Map.entry("second.key", "short"));
        assertThatThrownBy(() -> options.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aPackagingErrorNamesTheResourceAndWhatIsWrong() {
        assertThatThrownBy(() -> load("missing-options.txt")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("io/jobinfo/store/spi/missing-options.txt").hasMessageContaining("missing");
        assertThatThrownBy(() -> load("twice-options.txt")).hasMessageContaining("option k is described twice");
        assertThatThrownBy(() -> load("orphan-options.txt")).hasMessageContaining("before the first key");
        assertThatThrownBy(() -> load("empty-options.txt")).hasMessageContaining("option k has no description");
        assertThatThrownBy(() -> load("placeholder-options.txt"))
                .hasMessageContaining("names ${X}, which has no value");
    }

    private static Map<String, String> load(String resource) {
        return OptionDescriptions.load(OptionDescriptionsTest.class, resource, Collections.emptyMap());
    }
}
