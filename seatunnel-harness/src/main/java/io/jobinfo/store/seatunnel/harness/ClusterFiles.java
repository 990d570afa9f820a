package io.jobinfo.store.seatunnel.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Writes the configuration files one member process reads: {@code seatunnel.yaml}, {@code hazelcast.yaml} and a log4j2
 * configuration at WARN. Every member gets its own directory: the port differs, and a test may give one member a
 * configuration the others lack.
 */
final class ClusterFiles {

    private ClusterFiles() {}

    /** The files of one member, all under {@link #dir()}. */
    record MemberFiles(Path dir, Path seatunnelYaml, Path hazelcastYaml, Path log4j2, Path log) {}

    /**
     * Writes the files of member {@code index}.
     *
     * @throws UncheckedIOException if a file cannot be written
     */
    static MemberFiles write(ClusterSpec spec, int index, Path memberDir, Path checkpointDir) {
        try {
            Files.createDirectories(memberDir);
            Path seatunnel = memberDir.resolve("seatunnel.yaml");
            Path hazelcast = memberDir.resolve("hazelcast.yaml");
            Path log4j2 = memberDir.resolve("log4j2.properties");
            Files.writeString(seatunnel, seatunnelYaml(spec, checkpointDir), StandardCharsets.UTF_8);
            Files.writeString(hazelcast, hazelcastYaml(spec, index), StandardCharsets.UTF_8);
            Files.writeString(log4j2, LOG4J2, StandardCharsets.UTF_8);
            return new MemberFiles(memberDir, seatunnel, hazelcast, log4j2, memberDir.resolve("member.log"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the configuration of member " + index + " in " + memberDir, e);
        }
    }

    /** SeaTunnel's default, written out unless the spec's engine YAML has a telemetry section of its own. */
    private static final String TELEMETRY_OFF = """
                telemetry:
                  metric:
                    enabled: false
            """;

    static String seatunnelYaml(ClusterSpec spec, Path checkpointDir) {
        return """
                seatunnel:
                  engine:
                    history-job-expire-minutes: 60
                    backup-count: 1
                    queue-type: blockingqueue
                    print-execution-info-interval: 600
                    print-job-metrics-info-interval: 600
                    slot-service:
                      dynamic-slot: true
                    checkpoint:
                      interval: 5000
                      timeout: 60000
                      storage:
                        type: localfile
                        max-retained: 3
                        plugin-config:
                          namespace: %s
                %s%s""".formatted(checkpointDir.toAbsolutePath(), spec.ownsTelemetry() ? "" : TELEMETRY_OFF,
                spec.extraEngineYaml().indent(4));
    }

    static String hazelcastYaml(ClusterSpec spec, int index) {
        String members = IntStream.of(spec.ports())
                .mapToObj(p -> "          - 127.0.0.1:" + p)
                .collect(Collectors.joining("\n"));
        return """
                hazelcast:
                  cluster-name: %s
                  network:
                    rest-api:
                      enabled: true
                      endpoint-groups:
                        CLUSTER_WRITE:
                          enabled: true
                        DATA:
                          enabled: true
                    interfaces:
                      enabled: true
                      interfaces:
                        - 127.0.0.1
                    join:
                      multicast:
                        enabled: false
                      tcp-ip:
                        enabled: true
                        member-list:
                %s
                    port:
                      auto-increment: false
                      port: %d
                  properties:
                    hazelcast.socket.bind.any: false
                    hazelcast.phone.home.enabled: false
                    hazelcast.invocation.max.retry.count: 20
                    hazelcast.tcp.join.port.try.count: 3
                    hazelcast.logging.type: log4j2
                    hazelcast.operation.generic.thread.count: 8
                    hazelcast.operation.thread.count: 4
                    hazelcast.heartbeat.interval.seconds: 1
                    hazelcast.max.no.heartbeat.seconds: %d
                    hazelcast.heartbeat.failuredetector.type: deadline
                    hazelcast.merge.first.run.delay.seconds: 5
                    hazelcast.merge.next.run.delay.seconds: 5
                %s""".formatted(spec.clusterName(), members, spec.ports()[index], spec.maxNoHeartbeatSeconds(),
                spec.extraHazelcastYaml().indent(2));
    }

    private static final String LOG4J2 = """
            status = error
            appender.console.type = Console
            appender.console.name = console
            appender.console.layout.type = PatternLayout
            appender.console.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1.} - %m%n
            rootLogger.level = warn
            rootLogger.appenderRef.console.ref = console
            # the coordinator's few lines per job (submit, restore after a master switch) are what the tests read
            logger.coordinator.name = org.apache.seatunnel.engine.server.CoordinatorService
            logger.coordinator.level = info
            # the drop-in's start line and its periodic summary, as an operator's INFO log shows them
            logger.jobinfo.name = io.jobinfo.store.seatunnel.dropin
            logger.jobinfo.level = info
            """;
}
