package io.jobinfo.store.seatunnel.harness;

import java.util.List;
import java.util.Objects;

/**
 * What a test cluster looks like: its name (a cluster of its own: other clusters may run on this machine), one
 * loopback port per member, the heartbeat timeout, extra YAML for {@code seatunnel.engine} and for the root of
 * {@code hazelcast}, extra JVM options and extra classpath entries of every member, and whether the members log as
 * a stock install does ({@link #withSeaTunnelLogFile()}) instead of to the harness's console capture.
 */
public record ClusterSpec(String clusterName, int[] ports, int maxNoHeartbeatSeconds, String extraEngineYaml,
                          String extraHazelcastYaml, List<String> jvmOptions, List<String> extraClasspath,
                          boolean seaTunnelLogFile) {

    public ClusterSpec {
        Objects.requireNonNull(clusterName, "clusterName");
        if (ports.length == 0) {
            throw new IllegalArgumentException("a cluster needs at least one member port");
        }
        extraEngineYaml = extraEngineYaml == null ? "" : extraEngineYaml;
        extraHazelcastYaml = extraHazelcastYaml == null ? "" : extraHazelcastYaml;
        jvmOptions = List.copyOf(jvmOptions);
        extraClasspath = List.copyOf(extraClasspath);
    }

    /** A stock cluster of {@code members} members on free ports, named after {@code prefix}. */
    public static ClusterSpec stock(String prefix, int members) {
        return new ClusterSpec(prefix + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime() % 100000,
                FreePorts.pick(members), 6, "", "", List.of("-Xms256m", "-Xmx640m"), List.of(), false);
    }

    public int size() {
        return ports.length;
    }

    public ClusterSpec withEngineYaml(String yaml) {
        return new ClusterSpec(clusterName, ports, maxNoHeartbeatSeconds, yaml, extraHazelcastYaml, jvmOptions,
                extraClasspath, seaTunnelLogFile);
    }

    /**
     * The same cluster with SeaTunnel's telemetry metrics on ({@code telemetry: metric: enabled: true} under
     * {@code seatunnel.engine}): every member serves its Prometheus metrics at {@code /hazelcast/rest/instance/metrics}.
     * Appends to the engine YAML: call it after {@link #withEngineYaml}, which replaces that YAML.
     */
    public ClusterSpec withTelemetry() {
        return withEngineYaml(extraEngineYaml + (extraEngineYaml.isEmpty() || extraEngineYaml.endsWith("\n") ? "" : "\n")
                + """
                telemetry:
                  metric:
                    enabled: true
                """);
    }

    /** Whether the engine YAML of this spec sets {@code history-job-expire-minutes} (the default 60 is then left out). */
    boolean ownsHistoryExpiry() {
        return extraEngineYaml.lines().anyMatch(l -> l.startsWith("history-job-expire-minutes:"));
    }

    /** Whether the engine YAML of this spec has its own {@code telemetry} section (the default one is then left out). */
    boolean ownsTelemetry() {
        return extraEngineYaml.lines().anyMatch(l -> l.startsWith("telemetry:"));
    }

    public ClusterSpec withHazelcastYaml(String yaml) {
        return new ClusterSpec(clusterName, ports, maxNoHeartbeatSeconds, extraEngineYaml, yaml, jvmOptions,
                extraClasspath, seaTunnelLogFile);
    }

    public ClusterSpec withJvmOptions(List<String> options) {
        List<String> all = new java.util.ArrayList<>(jvmOptions);
        all.addAll(options);
        return new ClusterSpec(clusterName, ports, maxNoHeartbeatSeconds, extraEngineYaml, extraHazelcastYaml, all,
                extraClasspath, seaTunnelLogFile);
    }

    /** The same cluster with {@code members} more ports in every member list (members started later by a test). */
    public ClusterSpec withSpareMembers(int members) {
        int[] more = java.util.Arrays.copyOf(ports, ports.length + members);
        int[] fresh = FreePorts.pick(members + ports.length);
        int added = 0;
        for (int p : fresh) {
            if (added == members) {
                break;
            }
            boolean used = false;
            for (int q : ports) {
                used |= q == p;
            }
            if (!used) {
                more[ports.length + added++] = p;
            }
        }
        return new ClusterSpec(clusterName, more, maxNoHeartbeatSeconds, extraEngineYaml, extraHazelcastYaml,
                jvmOptions, extraClasspath, seaTunnelLogFile);
    }

    /**
     * The same cluster with another heartbeat timeout: a test of rolling restarts on a loaded machine, where a member
     * starved of CPU for 6 s would be taken for dead and split off.
     */
    public ClusterSpec withMaxNoHeartbeatSeconds(int seconds) {
        return new ClusterSpec(clusterName, ports, seconds, extraEngineYaml, extraHazelcastYaml, jvmOptions,
                extraClasspath, seaTunnelLogFile);
    }

    /**
     * The same cluster with every member logging as {@code bin/seatunnel-cluster.sh -d} of a SeaTunnel 2.3.8 install
     * with its shipped {@code config/log4j2.properties} does: to {@code logs/seatunnel-engine-server.log} under the
     * member's SeaTunnel home, at INFO, through log4j2's asynchronous loggers, nothing to the console (what reaches
     * stdout and stderr still goes to the harness's {@code member.log}, as a stock install's {@code
     * seatunnel-server.out}). See {@link SeaTunnelProcessCluster#serverLog(int)}.
     */
    public ClusterSpec withSeaTunnelLogFile() {
        return new ClusterSpec(clusterName, ports, maxNoHeartbeatSeconds, extraEngineYaml, extraHazelcastYaml,
                jvmOptions, extraClasspath, true);
    }

    /** The same members under another cluster name (a second cluster on the same ports and files). */
    public ClusterSpec withClusterName(String name) {
        return new ClusterSpec(name, ports, maxNoHeartbeatSeconds, extraEngineYaml, extraHazelcastYaml, jvmOptions,
                extraClasspath, seaTunnelLogFile);
    }

    public ClusterSpec withExtraClasspath(List<String> entries) {
        return new ClusterSpec(clusterName, ports, maxNoHeartbeatSeconds, extraEngineYaml, extraHazelcastYaml,
                jvmOptions, entries, seaTunnelLogFile);
    }
}
