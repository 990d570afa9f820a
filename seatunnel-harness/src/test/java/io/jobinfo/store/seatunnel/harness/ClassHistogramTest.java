package io.jobinfo.store.seatunnel.harness;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Histograms of the shape HotSpot prints, and one of this very JVM through the member probe's own command. */
class ClassHistogramTest {

    static final String BEFORE = String.join("\n",
            " num     #instances         #bytes  class name (module)",
            "-------------------------------------------------------",
            "   1:          1000         100000  [B (java.base@17.0.12)",
            "   2:           500          12000  java.lang.String (java.base@17.0.12)",
            "Total          1500         112000");
    static final String AFTER = String.join("\n",
            " num     #instances         #bytes  class name (module)",
            "   1:         31000        4100000  [B (java.base@17.0.12)",
            "   2:         10000         480000  com.hazelcast.map.impl.record.DataRecordWithStats",
            "   3:           400           9600  java.lang.String (java.base@17.0.12)",
            "Total         41400        4589600");

    @Test
    void whatGrewIsListedLargestFirstAndWhatShrankIsNot() {
        ClassHistogram before = ClassHistogram.parse(BEFORE);
        ClassHistogram after = ClassHistogram.parse(AFTER);
        assertThat(before.totalBytes()).isEqualTo(112_000);
        assertThat(after.grownSince(before, 5)).containsExactly(
                new ClassHistogram.Row("[B", 30_000, 4_000_000),
                new ClassHistogram.Row("com.hazelcast.map.impl.record.DataRecordWithStats", 10_000, 480_000));
        assertThat(after.grownSince(before, 1)).hasSize(1);
    }

    @Test
    void textThatIsNoHistogramIsRefusedNamingIt() {
        assertThatThrownBy(() -> ClassHistogram.parse("jcmd: no such command")).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("not a class histogram").hasMessageContaining(
                "jcmd: no such command");
    }

    @Test
    void thisJvmsOwnHistogramParses() throws Exception {
        ClassHistogram self = ClassHistogram.parse(new HeapHistogramProbe(Integer.MAX_VALUE).call());
        assertThat(self.totalBytes()).isPositive();
    }
}
