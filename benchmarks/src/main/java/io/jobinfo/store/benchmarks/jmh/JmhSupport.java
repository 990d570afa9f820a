package io.jobinfo.store.benchmarks.jmh;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import io.jobinfo.store.lifecycle.JobInfoSerialization;

/** Shared set-up of the JMH benchmarks. */
final class JmhSupport {

    private JmhSupport() {
    }

    /** A lone member on loopback (ports {@code basePort}+), its own cluster name, no join attempts elsewhere. */
    static Config memberConfig(String clusterName, int basePort) {
        Config config = new Config().setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.getJetConfig().setEnabled(false);
        config.getNetworkConfig().setPort(basePort).setPortCount(20).getInterfaces().setEnabled(true)
                .addInterface("127.0.0.1");
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:" + basePort);
        return JobInfoSerialization.configure(JavaDeserializationFilter.restrict(config));
    }
}
