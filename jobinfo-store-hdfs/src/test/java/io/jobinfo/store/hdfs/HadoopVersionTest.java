package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HadoopVersionTest {

    @Test
    void versionsCompareNumericallyPartByPart() {
        assertThat(HadoopVersion.atLeast("3.5.0", "3.4.2")).isTrue();
        assertThat(HadoopVersion.atLeast("3.4.2", "3.4.2")).isTrue();
        assertThat(HadoopVersion.atLeast("3.4.10", "3.4.2")).isTrue();
        assertThat(HadoopVersion.atLeast("3.4.1", "3.4.2")).isFalse();
        assertThat(HadoopVersion.atLeast("3.1.4", "3.4.2")).isFalse();
        assertThat(HadoopVersion.atLeast("2.10.2", "3.4.2")).isFalse();
        assertThat(HadoopVersion.atLeast("4.0", "3.4.2")).isTrue();
    }

    @Test
    void suffixesAreIgnoredAndUnparseableVersionsCountAsTooOld() {
        assertThat(HadoopVersion.atLeast("3.4.2-SNAPSHOT", "3.4.2")).isTrue();
        assertThat(HadoopVersion.atLeast("3.5.0-cdh7", "3.4.2")).isTrue();
        assertThat(HadoopVersion.atLeast("unknown", "3.4.2")).isFalse();
        assertThat(HadoopVersion.atLeast(null, "3.4.2")).isFalse();
    }

    @Test
    void theProjectsOwnHadoopHasS3aConditionalCreate() {
        assertThat(HadoopVersion.current()).startsWith("3.5");
        assertThat(HadoopVersion.hasS3aConditionalCreate()).isTrue();
    }
}
