package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The backend's duration keys read the project's one duration syntax (io.jobinfo.store.config.Durations). */
class S3DurationSyntaxTest {

    /** Settings parsed from a section with bucket and namespace and {@code options} (key, value, ...). */
    static S3StoreSettings settings(List<String> problems, String... options) {
        JobInfoStorageConfig.Builder b = JobInfoStorageConfig.builder("s3").namespace("jobinfo")
                .option("s3.bucket", "jobinfo");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return S3StoreSettings.parse(b.build(), problems);
    }

    @Test
    void theDurationKeysReadTheSameFormsAsTheCoreAndTheCli() {
        List<String> problems = new ArrayList<>();
        S3StoreSettings s = settings(problems, "s3.call-timeout", "1m30s", "s3.retry.max-delay", "1d",
                "s3.socket-timeout", "PT45S", "s3.retry.base-delay", "250ms");
        assertThat(problems).isEmpty();
        assertThat(s.callTimeout).isEqualTo(Duration.ofSeconds(90));
        assertThat(s.maxDelay).isEqualTo(Duration.ofDays(1));
        assertThat(s.socketTimeout).isEqualTo(Duration.ofSeconds(45));
        assertThat(s.baseDelay).isEqualTo(Duration.ofMillis(250));

        List<String> bad = new ArrayList<>();
        settings(bad, "s3.call-timeout", "90", "s3.socket-timeout", "-PT5S");
        assertThat(bad).anyMatch(p -> p.contains("s3.call-timeout: '90' has no unit"))
                .anyMatch(p -> p.contains("s3.socket-timeout: '-PT5S' is negative"));
    }
}
