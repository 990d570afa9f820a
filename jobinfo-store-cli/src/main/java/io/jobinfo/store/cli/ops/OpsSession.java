package io.jobinfo.store.cli.ops;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.ClientConnectionStrategyConfig;
import com.hazelcast.client.config.YamlClientConfigBuilder;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * A connection to a running cluster (as a Hazelcast client) and its store, opened in an order that changes nothing
 * when anything is wrong: the storage YAML is parsed first (exit 2), then the client connects (exit 3), then the
 * store opens (exit 2 for a configuration the backend refuses, 3 when it cannot be reached). Messages name the
 * option or file at fault and never print configuration values (they may hold credentials).
 */
final class OpsSession implements AutoCloseable {

    private final HazelcastInstance client;
    private final JobInfoStore store;
    private final IMap<Long, Object> map;
    private final boolean mapExisted;

    private OpsSession(HazelcastInstance client, JobInfoStore store, IMap<Long, Object> map, boolean mapExisted) {
        this.client = client;
        this.store = store;
        this.map = map;
        this.mapExisted = mapExisted;
    }

    static OpsSession open(ConnectionOptions options) {
        validateMapName(options.mapName);
        JobInfoStorageConfig storage = readStorageConfig(options);
        ClientConfig clientConfig = clientConfig(options);
        HazelcastInstance client = connect(clientConfig, options);
        JobInfoStore store;
        try {
            store = JobInfoStores.open(storage);
        } catch (InvalidConfigurationException e) {
            client.shutdown();
            throw new OpsException(ExitCodes.USAGE, "--storage-config " + options.storageConfig + ": "
                    + e.getMessage());
        } catch (JobInfoStoreException | RuntimeException e) {
            client.shutdown();
            throw new OpsException(ExitCodes.UNREACHABLE, "the " + storage.type() + " store of "
                    + options.storageConfig + " cannot be opened: " + e.getMessage()
                    + "; check that it is reachable and its jobinfo-storage settings", e);
        }
        boolean existed = mapExists(client, options.mapName); // before getMap, which creates it
        return new OpsSession(client, store, client.getMap(options.mapName), existed);
    }

    HazelcastInstance client() {
        return client;
    }

    JobInfoStore store() {
        return store;
    }

    IMap<Long, Object> map() {
        return map;
    }

    /** Whether the job map existed on the cluster before this session opened it (opening creates it). */
    boolean mapExisted() {
        return mapExisted;
    }

    static boolean mapExists(HazelcastInstance client, String name) {
        for (com.hazelcast.core.DistributedObject o : client.getDistributedObjects()) {
            if (o instanceof IMap && name.equals(o.getName())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        try {
            store.close();
        } catch (JobInfoStoreException | RuntimeException e) {
            // closing is best effort; the work is done
        }
        client.shutdown();
    }

    private static void validateMapName(String mapName) {
        if (mapName == null || mapName.trim().isEmpty()) {
            throw new OpsException(ExitCodes.USAGE, "--map must name the job map, such as "
                    + io.jobinfo.store.service.RunningJobInfoRegistry.DEFAULT_MAP_NAME);
        }
    }

    /** Reads and checks the storage YAML completely (core and backend keys) before anything connects: exit 2. */
    static JobInfoStorageConfig readStorageConfig(ConnectionOptions options) {
        try {
            return StorageConfigFile.read("--storage-config", options.storageConfig);
        } catch (StorageConfigFile.Invalid e) {
            throw new OpsException(ExitCodes.USAGE, e.getMessage());
        }
    }

    static ClientConfig clientConfig(ConnectionOptions options) {
        ClientConfig config;
        if (options.clientConfig != null) {
            if (!Files.isRegularFile(options.clientConfig)) {
                throw new OpsException(ExitCodes.USAGE, "--client-config " + options.clientConfig
                        + ": no such file; give a Hazelcast client YAML or use --cluster-name and --address");
            }
            try {
                config = new YamlClientConfigBuilder(options.clientConfig.toFile()).build();
            } catch (IOException | RuntimeException e) {
                throw new OpsException(ExitCodes.USAGE, "--client-config " + options.clientConfig
                        + ": not a valid Hazelcast client YAML (" + firstLine(e.getMessage()) + ")");
            }
        } else {
            config = new ClientConfig();
            config.setClusterName(ConnectionOptions.DEFAULT_CLUSTER_NAME);
        }
        if (options.clusterName != null) {
            if (options.clusterName.trim().isEmpty()) {
                throw new OpsException(ExitCodes.USAGE, "--cluster-name must not be empty");
            }
            config.setClusterName(options.clusterName);
        }
        List<String> addresses = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String address : options.addresses) {
            String problem = addressProblem(address);
            if (problem != null) {
                problems.add(problem);
            }
            addresses.add(address.trim());
        }
        if (!problems.isEmpty()) {
            throw new OpsException(ExitCodes.USAGE, String.join("\n", problems));
        }
        if (!addresses.isEmpty()) {
            config.getNetworkConfig().setAddresses(addresses);
        } else if (options.clientConfig == null) {
            config.getNetworkConfig().setAddresses(Collections.singletonList(ConnectionOptions.DEFAULT_ADDRESS));
        }
        if (options.connectTimeout.isZero() || options.connectTimeout.isNegative()) {
            throw new OpsException(ExitCodes.USAGE, "--connect-timeout must be positive, such as 10s");
        }
        config.setInstanceName("jobinfo-store-cli-" + UUID.randomUUID());
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        // the commands close the client themselves, after a cancelled run has finished its entries
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        boundConnection(config, options.connectTimeout);
        return JobInfoSerialization.configure(JavaDeserializationFilter.restrict(config));
    }

    /**
     * Makes {@code timeout} bound the whole connection attempt, not only the retry loop. The client's connect loop
     * ({@code cluster-connect-timeout}) checks its deadline only between attempts, and one attempt can hang far longer:
     * the TCP connect waits {@code network.connection-timeout} per address (5 s by default) and the authentication
     * waits {@code hazelcast.client.heartbeat.timeout} (60 s by default) for a peer that accepts the connection and
     * never answers. So each address gets its share of the timeout for the TCP connect, and authentication and the
     * heartbeat give up after the timeout too: a member silent that long is treated as gone (the client reconnects).
     */
    static void boundConnection(ClientConfig config, java.time.Duration timeout) {
        long millis = timeout.toMillis();
        int addresses = Math.max(1, config.getNetworkConfig().getAddresses().size());
        long perAddress = Math.max(250, Math.min(5000, millis / addresses));
        config.getNetworkConfig().setConnectionTimeout((int) Math.min(perAddress, millis));
        config.setProperty("hazelcast.client.heartbeat.timeout", Long.toString(millis));
        config.setProperty("hazelcast.client.heartbeat.interval", Long.toString(Math.max(100, Math.min(5000,
                millis / 3))));
        ClientConnectionStrategyConfig strategy = config.getConnectionStrategyConfig();
        strategy.setAsyncStart(false);
        strategy.setReconnectMode(ClientConnectionStrategyConfig.ReconnectMode.ON);
        strategy.getConnectionRetryConfig().setClusterConnectTimeoutMillis(millis)
                .setInitialBackoffMillis((int) Math.min(200, Math.max(10, millis / 10)))
                .setMaxBackoffMillis((int) Math.min(2000, Math.max(10, millis / 4)));
    }

    private static HazelcastInstance connect(ClientConfig config, ConnectionOptions options) {
        try {
            return HazelcastClient.newHazelcastClient(config);
        } catch (RuntimeException e) {
            throw new OpsException(ExitCodes.UNREACHABLE, "cannot connect to Hazelcast cluster '"
                    + config.getClusterName() + "' at " + config.getNetworkConfig().getAddresses() + " within "
                    + DurationConverter.format(options.connectTimeout) + " (" + firstLine(e.getMessage())
                    + "); check that the cluster is up, that --address names a member and that --cluster-name"
                    + " matches the members' cluster-name, or raise --connect-timeout", e);
        }
    }

    static String addressProblem(String address) {
        String a = address.trim();
        int colon = a.lastIndexOf(':');
        if (a.isEmpty() || colon <= 0 || colon == a.length() - 1) {
            return "--address '" + address + "' must be HOST:PORT, such as 127.0.0.1:5801";
        }
        try {
            int port = Integer.parseInt(a.substring(colon + 1));
            if (port < 1 || port > 65535) {
                return "--address '" + address + "': port " + port + " is not between 1 and 65535";
            }
        } catch (NumberFormatException e) {
            return "--address '" + address + "': '" + a.substring(colon + 1) + "' is not a port number";
        }
        return null;
    }

    static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
