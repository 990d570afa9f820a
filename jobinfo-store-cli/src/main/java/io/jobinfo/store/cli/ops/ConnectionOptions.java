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

    @Option(names = "--client-config", paramLabel = "FILE")
    Path clientConfig;

    @Option(names = "--map", paramLabel = "NAME", defaultValue = RunningJobInfoRegistry.DEFAULT_MAP_NAME)
    String mapName;

    @Option(names = "--storage-config", paramLabel = "FILE", required = true)
    Path storageConfig;

    @Option(names = "--connect-timeout", paramLabel = "DURATION", defaultValue = "10s",
            converter = DurationConverter.class)
    Duration connectTimeout;
}
