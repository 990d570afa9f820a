package io.jobinfo.store.values;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.spi.StoredBlob;
import java.time.Instant;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** The record semantics {@link ValueObject} gives, checked against what the hand-written methods computed. */
class ValueObjectTest {

    private final Instant at = Instant.parse("2026-12-03T10:15:30Z");

    @Test
    void equalityIsByClassAndEveryComponent() {
        StoredBlob a = new StoredBlob(7, "file:/s/7", 100, at, false);
        assertThat(a).isEqualTo(new StoredBlob(7, "file:/s/7", 100, at, false));
        assertThat(a).isNotEqualTo(new StoredBlob(7, "file:/s/7", 100, at, true));
        assertThat(a).isNotEqualTo(new StoredBlob(7, null, 100, at, false));
        assertThat(new StoredBlob(7, null, 100, null, false)).isEqualTo(new StoredBlob(7, null, 100, null, false));
        assertThat(a).isNotEqualTo(null).isNotEqualTo("StoredBlob");
    }

    @Test
    void hashCodeAndStringAreThoseOfTheHandWrittenMethods() {
        StoredBlob a = new StoredBlob(7, "file:/s/7", 100, at, true);
        int h = 0;
        h = 31 * h + Long.hashCode(7);
        h = 31 * h + Objects.hashCode("file:/s/7");
        h = 31 * h + Long.hashCode(100);
        h = 31 * h + Objects.hashCode(at);
        h = 31 * h + Boolean.hashCode(true);
        h = 31 * h + Objects.hashCode(null);
        assertThat(a.hashCode()).isEqualTo(h);
        assertThat(a).hasToString("StoredBlob[jobId=7, location=file:/s/7, sizeBytes=100, lastModified=" + at
                + ", incomplete=true, leftoverToken=null]");
    }

    @Test
    void anArrayComponentComparesByIdentityAsInARecord() {
        final class Holder extends ValueObject {
            final byte[] bytes;

            Holder(byte[] bytes) {
                this.bytes = bytes;
            }

            @Override
            protected Object[] components() {
                return new Object[] {"bytes", bytes};
            }
        }
        byte[] b = {1, 2};
        assertThat(new Holder(b)).isEqualTo(new Holder(b)).isNotEqualTo(new Holder(new byte[] {1, 2}));
        assertThat(new Holder(b).toString()).isEqualTo("Holder[bytes=" + b + "]");
    }
}
