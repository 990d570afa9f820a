package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import org.junit.jupiter.api.Test;

/**
 * The member processes of these tests ({@link MemberMain}) restrict Java deserialization as the in-JVM members of
 * core's test-jar do (core's {@code JavaDeserializationTripwireTest} shows the filter keeps a Java-serialized value
 * from being instantiated).
 */
class MemberConfigurationFilterTest {

    @Test
    void theMemberProcessConfigurationCarriesTheFilter() {
        assertThat(MemberMain.memberConfig("c", 5901, 5901, 3).getSerializationConfig()
                .getJavaSerializationFilterConfig()).isEqualTo(JavaDeserializationFilter.filterConfig());
    }
}
