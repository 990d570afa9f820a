package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;

import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Hazelcast members in the test's JVM that load the drop-in as an engine member does: by Hazelcast's own service
 * discovery ({@code META-INF/services} of the plugin module), through the members' configuration class loader, so that
 * no other member of this JVM loads it.
 */
final class PluginMembers {

    private PluginMembers() {
    }

    /**
     * A class loader over the plugin module's own {@code META-INF/services} (the only resources of that module), read
     * where the module is built, with {@code test}'s loader as parent.
     *
     * @throws IllegalStateException if the plugin module's service files are not beside this module
     */
    static URLClassLoader pluginLoader(Class<?> test) {
        Path resources = Path.of("..", "jobinfo-store-seatunnel-plugin", "src", "main", "resources")
                .toAbsolutePath().normalize();
        if (!Files.exists(resources.resolve("META-INF/services/com.hazelcast.SerializerHook"))) {
            throw new IllegalStateException("the plugin module's service files are not at " + resources);
        }
        try {
            return new URLClassLoader(new URL[] {resources.toUri().toURL()}, test.getClassLoader());
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A member of {@code cluster} on loopback that loads classes through {@code plugin}; the members look for each
     * other on {@code firstPort} to {@code firstPort + 9}, each taking the first of them free.
     */
    static Config config(String cluster, int firstPort, ClassLoader plugin) {
        Config config = new Config();
        config.setClusterName(cluster);
        config.setClassLoader(plugin);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.getNetworkConfig().setPort(firstPort).setPortAutoIncrement(true).setPortCount(10);
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).addMember("127.0.0.1");
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        return config;
    }
}
