package io.jobinfo.store.seatunnel.dropin;

import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The factory's own two properties: a bad value fails the map store's creation with a message that says what to do. */
class DropInMapStoreFactoryTest {

    @Test
    void theWaitBoundDefaultsToOneSecondAndABadValueNamesThePropertyAndItsRange() {
        assertThat(DropInMapStoreFactory.waitMillis(new Properties())).isEqualTo(1000);
        Properties p = new Properties();
        p.setProperty(DropInMapStoreFactory.WAIT_KEY, " 250 ");
        assertThat(DropInMapStoreFactory.waitMillis(p)).isEqualTo(250);
        for (String bad : new String[] {"1s", "-1", "60001"}) {
            p.setProperty(DropInMapStoreFactory.WAIT_KEY, bad);
            assertThatThrownBy(() -> new DropInMapStoreFactory().newMapStore(JobInfoMover.MAP, p))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("jobinfo.blob-wait-millis: '" + bad + "'")
                    .hasMessageContaining("from 0 to 60000");
        }
    }

    @Test
    void aDelegateThatIsNotThereOrNotAFactoryIsNamed() {
        Properties p = new Properties();
        // seatunnel-engine-server is not on this module's class path: SeaTunnel's own factory is missing here
        assertThatThrownBy(() -> new DropInMapStoreFactory().newMapStore(JobInfoMover.MAP, p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(DropInMapStoreFactory.SEATUNNEL_FACTORY)
                .hasMessageContaining("is not on the member's class path");
        p.setProperty(DropInMapStoreFactory.DELEGATE_KEY, DropInMapStoreFactory.class.getName());
        assertThatThrownBy(() -> new DropInMapStoreFactory().newMapStore("engine_runningJobState", p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a com.hazelcast.map.MapStoreFactory other than this one");
        p.setProperty(DropInMapStoreFactory.DELEGATE_KEY, String.class.getName());
        assertThatThrownBy(() -> new DropInMapStoreFactory().newMapStore("engine_runningJobState", p))
                .hasMessageContaining("java.lang.String (jobinfo.delegate-factory-class-name)");
    }
}
