package io.jobinfo.store.it;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.jobinfo.store.codec.KryoJobInfoCodec;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.service.JavaDeserializationFilter;
import io.jobinfo.store.service.JobInfoSerialization;
import io.jobinfo.store.service.RestoreReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.service.SubmitObserver;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Hazelcast member in its own JVM, with a fencing {@link RunningJobInfoRegistry} on the store the test configured,
 * driven by the test over stdin with one command per line: {@code <tag> <COMMAND> [args]}. Every reply is one line
 * {@code @@ <tag> <reply>} on stdout (logs go to stderr). Commands run on their own threads, so a submit that is
 * parked at a crash point does not block the next command.
 *
 * <ul>
 *   <li>{@code SAFE [expectedMembers]} - {@code SAFE <members> <clusterSafe> <isMaster>}</li>
 *   <li>{@code TAKEOVER} - {@code EPOCH <n>}: this member takes charge ({@link RunningJobInfoRegistry#takeOver()})</li>
 *   <li>{@code SUBMIT <id> <bytes> [BEFORE_BLOB|AFTER_BLOB|AFTER_POINTER]} - {@code ACK <id>} or
 *   {@code FAIL <id> <exception> <message>}; with a crash point, {@code AT <point>} is printed when the submit
 *   reaches it and the submitting thread then waits forever, for the test to {@code kill -9} this JVM</li>
 *   <li>{@code RESTORE [parkAfter]} - {@code RESTORED <id> <sha256 of the re-encoded job>} per job,
 *   {@code RESTORE_FAILED <id> <message>}, then {@code RESTORE_DONE <restored> <failed>}; with {@code parkAfter},
 *   {@code AT RESTORE} is printed after that many jobs and every restore thread parks</li>
 * </ul>
 * The job of id {@code n} is always {@code new JobGenerator(seed).generate(n, bytes)}, so the test knows what bytes
 * an acknowledged job must have.
 */
public final class MemberMain {

    static final String PREFIX = "@@ ";
    private static final PrintStream OUT = System.out;
    private static final KryoJobInfoCodec<JobImmutableInformation> CODEC = JobImmutableInformationSerializer.codec();

    private MemberMain() {
    }

    public static void main(String[] args) throws Exception {
        System.setOut(System.err); // stray prints must not mix with the protocol
        String cluster = System.getProperty("it.cluster");
        int port = Integer.getInteger("it.port");
        int portBase = Integer.getInteger("it.portBase");
        int portCount = Integer.getInteger("it.portCount");
        JobGenerator generator = new JobGenerator(Long.getLong("it.jobSeed", 2026));

        HazelcastInstance hz = Hazelcast.newHazelcastInstance(memberConfig(cluster, port, portBase, portCount));
        JobInfoStore store = JobInfoStores.open(storageConfigFromSystemProperties());
        Map<Long, String> armed = new ConcurrentHashMap<>();
        SubmitObserver crashPoints = new SubmitObserver() {
            @Override
            public void beforeBlobWrite(long jobId) {
                park(jobId, "BEFORE_BLOB");
            }

            @Override
            public void afterBlobWrite(long jobId) {
                park(jobId, "AFTER_BLOB");
            }

            @Override
            public void afterPointerWrite(long jobId) {
                park(jobId, "AFTER_POINTER");
            }

            private void park(long jobId, String point) {
                String tag = armed.get(jobId);
                if (tag != null && tag.endsWith(" " + point)) {
                    reply(tag.substring(0, tag.indexOf(' ')), "AT " + point);
                    parkForever();
                }
            }
        };
        RunningJobInfoRegistry<JobImmutableInformation> registry = RunningJobInfoRegistry
                .builder(hz, store, CODEC).fencing(true).restoreParallelism(4).submitObserver(crashPoints).build();
        ExecutorService workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "command");
            t.setDaemon(true);
            return t;
        });
        reply("0", "UP " + ProcessHandle.current().pid());

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split(" ");
            if (w.length < 2) {
                continue;
            }
            String tag = w[0];
            workers.submit(() -> {
                try {
                    switch (w[1]) {
                        case "SAFE" -> {
                            // members, cluster safe (asked only when the expected size is seen; bounded: a query
                            // to a member that just died can hang), whether this member is the oldest (master)
                            int size = hz.getCluster().getMembers().size();
                            Member oldest = hz.getCluster().getMembers().iterator().next();
                            boolean safe = false;
                            if (w.length < 3 || Integer.parseInt(w[2]) == size) {
                                try {
                                    safe = java.util.concurrent.CompletableFuture
                                            .supplyAsync(() -> hz.getPartitionService().getPartitions().stream()
                                                    .allMatch(p -> p.getOwner() != null) // arranges them first
                                                    && hz.getPartitionService().isClusterSafe(), workers)
                                            .get(5, java.util.concurrent.TimeUnit.SECONDS);
                                } catch (Exception e) {
                                    safe = false;
                                }
                            }
                            reply(tag, "SAFE " + size + " " + safe + " " + oldest.localMember());
                        }
                        case "TAKEOVER" -> reply(tag, "EPOCH " + registry.takeOver());
                        case "SUBMIT" -> {
                            long id = Long.parseLong(w[2]);
                            int bytes = Integer.parseInt(w[3]);
                            if (w.length > 4) {
                                armed.put(id, tag + " " + w[4]);
                            }
                            try {
                                registry.submit(id, generator.generate(id, bytes));
                                reply(tag, "ACK " + id);
                            } catch (Exception e) {
                                reply(tag, "FAIL " + id + " " + e.getClass().getSimpleName() + " "
                                        + oneLine(e.getMessage()));
                            }
                        }
                        case "RESTORE" -> restore(tag, registry, w.length > 2 ? Integer.parseInt(w[2]) : -1);
                        case "EXIT" -> Runtime.getRuntime().halt(0);
                        default -> reply(tag, "ERR unknown command " + w[1]);
                    }
                } catch (Throwable t) {
                    reply(tag, "ERR " + t.getClass().getSimpleName() + " " + oneLine(t.getMessage()));
                }
            });
        }
        // stdin closed: the test JVM is gone; do not linger
        Runtime.getRuntime().halt(0);
    }

    private static void restore(String tag, RunningJobInfoRegistry<JobImmutableInformation> registry, int parkAfter) {
        AtomicInteger done = new AtomicInteger();
        RestoreReport report = registry.restoreAll((id, ts, job) -> {
            reply(tag, "RESTORED " + id + " " + sha256(CODEC.encode(job)));
            if (done.incrementAndGet() == parkAfter) {
                reply(tag, "AT RESTORE");
            }
            if (parkAfter > 0 && done.get() >= parkAfter) {
                parkForever();
            }
        });
        report.failed().forEach((id, e) -> reply(tag, "RESTORE_FAILED " + id + " " + oneLine(e.getMessage())));
        reply(tag, "RESTORE_DONE " + report.restored().size() + " " + report.failed().size());
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void parkForever() {
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException ignored) {
                // parked until killed
            }
        }
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ');
    }

    private static void reply(String tag, String text) {
        synchronized (OUT) {
            OUT.println(PREFIX + tag + " " + text);
            OUT.flush();
        }
    }

    /** Loopback only, TCP/IP join over the ports of this test's range, quick failure detection. */
    public static Config memberConfig(String cluster, int port, int portBase, int portCount) {
        Config config = new Config();
        config.setClusterName(cluster);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        // a write whose synchronous backup was not acknowledged fails (IndeterminateOperationStateException, which the
        // registry reports as an unknown outcome) instead of returning as if it had been backed up
        config.setProperty("hazelcast.operation.fail.on.indeterminate.state", "true");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.partition.count", "71");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "6");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "5");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.getJetConfig().setEnabled(false);
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(port).setPortAutoIncrement(false);
        network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (int p = portBase; p < portBase + portCount; p++) {
            join.getTcpIpConfig().addMember("127.0.0.1:" + p);
        }
        return JobInfoSerialization.configure(JavaDeserializationFilter.restrict(config));
    }

    static JobInfoStorageConfig storageConfigFromSystemProperties() {
        JobInfoStorageConfig.Builder b = JobInfoStorageConfig.builder(System.getProperty("it.store.type"))
                .namespace(System.getProperty("it.store.namespace"));
        String storeId = System.getProperty("it.store.id");
        if (storeId != null) {
            b.storeId(storeId);
        }
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("it.store.opt.")) {
                b.option(key.substring("it.store.opt.".length()), System.getProperty(key));
            }
        }
        return b.build();
    }
}
