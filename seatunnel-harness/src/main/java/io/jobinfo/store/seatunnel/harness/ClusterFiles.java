package io.jobinfo.store.seatunnel.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Writes the configuration files one member process reads: {@code seatunnel.yaml}, {@code hazelcast.yaml} and a log4j2
 * configuration, at WARN to the console (the harness's {@code member.log}) or, for a spec that asks for it, as a stock
 * SeaTunnel 2.3.8 install logs ({@link #STOCK_LOG4J2}). Every member gets its own directory: the port differs, and a
 * test may give one member a configuration the others lack.
 */
final class ClusterFiles {

    private ClusterFiles() {}

    /**
     * The files of one member, all under {@link #dir()} (the member's SeaTunnel home): {@code log} is what the process
     * writes to stdout and stderr, {@code serverLog} SeaTunnel's own log file (written by members of a spec
     * {@link ClusterSpec#seaTunnelLogFile()} only).
     */
    record MemberFiles(Path dir, Path seatunnelYaml, Path hazelcastYaml, Path log4j2, Path log, Path serverLog) {}

    /** Where {@code bin/seatunnel-cluster.sh} of 2.3.8 has a member log: {@code $SEATUNNEL_HOME/logs}. */
    static final String LOGS_DIR = "logs";
    /** The log file name {@code bin/seatunnel-cluster.sh} gives a member that is master and worker (the default). */
    static final String SERVER_LOG_NAME = "seatunnel-engine-server";

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
            Files.writeString(log4j2, spec.seaTunnelLogFile() ? STOCK_LOG4J2 : LOG4J2, StandardCharsets.UTF_8);
            return new MemberFiles(memberDir, seatunnel, hazelcast, log4j2, memberDir.resolve("member.log"),
                    memberDir.resolve(LOGS_DIR).resolve(SERVER_LOG_NAME + ".log"));
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
                %s    backup-count: 1
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
                %s%s""".formatted(spec.ownsHistoryExpiry() ? "" : "    history-job-expire-minutes: 60\n",
                checkpointDir.toAbsolutePath(), spec.ownsTelemetry() ? "" : TELEMETRY_OFF,
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
            # the mover's DEBUG line per job, for a test that starts its members with -Djobinfo.it.log.mover=debug
            logger.mover.name = io.jobinfo.store.seatunnel.dropin.JobInfoMover
            logger.mover.level = ${sys:jobinfo.it.log.mover:-info}
            """;

    /**
     * What {@code bin/seatunnel-cluster.sh} of 2.3.8 adds to a member's JVM options when {@code config/log4j2.properties}
     * exists (the {@code -Dlog4j2.configurationFile} and {@code -Dhazelcast.logging.type} of that script the harness
     * passes for every member): asynchronous loggers, the logs directory under the home and the file name of a member
     * that is master and worker.
     */
    static List<String> stockLoggingOptions(MemberFiles files) {
        return List.of("-Dlog4j2.contextSelector=org.apache.logging.log4j.core.async.AsyncLoggerContextSelector",
                "-Dlog4j2.isThreadContextMapInheritable=true",
                "-Dseatunnel.logs.path=" + files.serverLog().getParent(),
                "-Dseatunnel.logs.file_name=" + SERVER_LOG_NAME);
    }

    /**
     * The part of SeaTunnel 2.3.8's shipped {@code config/log4j2.properties} that writes the member's log file, with its
     * properties, levels, file name, layout and size and time policies as shipped (its console appenders, commented
     * out of the root logger there, and its per-job routing appender, which no logger references, are left out; so is
     * the deletion of old files, which a test's directory never needs).
     */
    static final String STOCK_LOG4J2 = """
            property.file_path = ${sys:seatunnel.logs.path:-/tmp/seatunnel/logs}
            property.file_name = ${sys:seatunnel.logs.file_name:-seatunnel}
            property.file_split_size = 100MB
            rootLogger.level = INFO
            logger.zeta.name=org.apache.seatunnel.engine
            logger.zeta.level=INFO
            logger.debezium.name=io.debezium.connector
            logger.debezium.level=WARN
            rootLogger.appenderRef.file.ref = fileAppender
            appender.file.name = fileAppender
            appender.file.type = RollingFile
            appender.file.fileName = ${file_path}/${file_name}.log
            appender.file.filePattern = ${file_path}/${file_name}.log.%d{yyyy-MM-dd}-%i
            appender.file.append = true
            appender.file.layout.type = PatternLayout
            appender.file.layout.pattern = [%X{ST-JID}] %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%-30.30c{1.}] [%t] - %m%n
            appender.file.policies.type = Policies
            appender.file.policies.time.type = TimeBasedTriggeringPolicy
            appender.file.policies.time.modulate = true
            appender.file.policies.size.type = SizeBasedTriggeringPolicy
            appender.file.policies.size.size = ${file_split_size}
            appender.file.strategy.type = DefaultRolloverStrategy
            appender.file.strategy.fileIndex = nomax
            """;
}
