package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The whole-number and part-size options: values, defaults and the problems a wrong one reports. */
class S3NumberOptionsTest {

    private static S3StoreSettings settings(List<String> problems, String... options) {
        return S3DurationSyntaxTest.settings(problems, options);
    }

    @Test
    void wholeNumbersAreReadAndAbsentOnesKeepTheirDefaults() {
        List<String> problems = new ArrayList<>();
        S3StoreSettings s = settings(problems, "s3.retry.max-attempts", " 7 ");
        assertThat(problems).isEmpty();
        assertThat(s.maxAttempts).isEqualTo(7);
        assertThat(s.probeRaceRounds).isEqualTo(S3StoreSettings.DEFAULT_PROBE_RACE_ROUNDS);
    }

    @Test
    void aWrongNumberNamesTheKeyAndTheRange() {
        List<String> problems = new ArrayList<>();
        assertThat(settings(problems, "s3.retry.max-attempts", "0", "s3.probe.race-rounds", "five")).isNull();
        assertThat(problems).containsExactly(
                "jobinfo-storage.plugin-config.s3.retry.max-attempts: 0 must be between 1 (no retry) and 100",
                "jobinfo-storage.plugin-config.s3.probe.race-rounds: 'five' is not a whole number; write e.g. 5");
        problems.clear();
        settings(problems, "s3.probe.race-rounds", "101");
        assertThat(problems).containsExactly(
                "jobinfo-storage.plugin-config.s3.probe.race-rounds: 101 must be between 1 and 100");
    }

    @Test
    void partSizesOutsideS3sLimitsAreProblems() {
        List<String> problems = new ArrayList<>();
        settings(problems, "s3.multipart.threshold", "1MiB", "s3.multipart.part-size", "6GiB");
        assertThat(problems).containsExactly(
                "jobinfo-storage.plugin-config.s3.multipart.threshold: 1.0 MiB must be between 5MiB and 5GiB (S3's limits"
                        + " for a single PutObject)",
                "jobinfo-storage.plugin-config.s3.multipart.part-size: 6.0 GiB must be between 5MiB and 5GiB (S3's part"
                        + " size limits)");
    }
}
