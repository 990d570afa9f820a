package io.jobinfo.store.cli.ops;

import io.jobinfo.store.service.RunningJobInfoRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** How the operations commands reach a running cluster and its store: a picocli mixin. */
public final class ConnectionOptions {

    static final String DEFAULT_CLUSTER_NAME = "seatunnel";
    static final String DEFAULT_ADDRESS = "127.0.0.1:5801";

    @Option(names = "--cluster-name", paramLabel = "NAME",
            description = "Hazelcast cluster name of the members (default: from --client-config, else '"
                    + DEFAULT_CLUSTER_NAME + "').")
    String clusterName;

    @Option(names = "--address", paramLabel = "ADDRESS",
            description = "A member address as HOST:PORT; repeatable (default: from --client-config, else " + DEFAULT_ADDRESS
                    + ").")
    List<String> addresses = new ArrayList<>();

    @Option(names = "--client-config", paramLabel = "FILE",
            description = "A Hazelcast client YAML (hazelcast-client: ...); --cluster-name and --address override"
                    + " it.")
    Path clientConfig;

    @Option(names = "--map", paramLabel = "NAME", defaultValue = RunningJobInfoRegistry.DEFAULT_MAP_NAME,
            description = "The job map (default: ${DEFAULT-VALUE}).")
    String mapName;

    @Option(names = "--storage-config", paramLabel = "FILE", required = true,
            description = "YAML with the jobinfo-storage section, the same file as the engine's; it is checked"
                    + " completely before anything connects.")
    Path storageConfig;

    @Option(names = "--connect-timeout", paramLabel = "DURATION", defaultValue = "10s",
            converter = DurationConverter.class,
            description = "Gives up connecting to the cluster after this long, such as 10s, 2m or PT10S, also when"
                    + " an address accepts the connection and never answers; a member silent that long counts as"
                    + " gone. Overrides the client config's cluster-connect-timeout (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;
}
