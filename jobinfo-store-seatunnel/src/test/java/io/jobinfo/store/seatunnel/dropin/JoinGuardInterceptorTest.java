package io.jobinfo.store.seatunnel.dropin;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.junit.jupiter.api.Test;

/**
 * The id a passive drop-in removes the join guard by is the one Hazelcast (5.1, SeaTunnel's) gives it: a real
 * member, the guard added, removed by {@link JoinGuardInterceptor#ID}.
 */
class JoinGuardInterceptorTest {

    @Test
    void theGuardIsRemovedByItsWellKnownId() {
        Config config = new Config();
        config.setClusterName("join-guard-" + ProcessHandle.current().pid());
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        try {
            IMap<Long, String> map = member.getMap(JobInfoMover.MAP);
            String id = map.addInterceptor(new JoinGuardInterceptor("local 0155aa8a file:///a/"));
            assertThat(id).isEqualTo(JoinGuardInterceptor.ID);
            assertThat(map.addInterceptor(new JoinGuardInterceptor("local 0000bbbb file:///b/")))
                    .as("one id for every guard, whatever its store").isEqualTo(id);
            assertThat(map.removeInterceptor(JoinGuardInterceptor.ID)).isTrue();
            assertThat(map.removeInterceptor(JoinGuardInterceptor.ID)).as("gone").isFalse();
        } finally {
            member.shutdown();
        }
    }
}
