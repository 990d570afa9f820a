package io.jobinfo.store.it;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import io.jobinfo.store.service.RestoreReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.service.SubmitPhaseListener;
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
 *   <li>{@code SUBMIT <id> <bytes> DURING_BLOB:<k>} - like the crash points above, but the submit parks inside
 *   the blob write, once the real store has read {@code k} bytes of the blob ({@link ParkingStore}); {@code AT
 *   DURING_BLOB} is printed when it parks</li>
 *   <li>{@code RESTORE [parkAfter]} - {@code RESTORED <id> <sha256 of the re-encoded job>} per job,
 *   {@code RESTORE_FAILED <id> <message>}, then {@code RESTORE_DONE <restored> <failed>}; with {@code parkAfter},
 *   {@code AT RESTORE} is printed after that many jobs and every restore thread parks</li>
 *   <li>{@code GET <id> <bytes>} - {@code GOT <id> <sha256>} (the job read through the registry, its cache first)
 *   or {@code MISSING <id>}; {@code FAIL <id> ...} on an error</li>
 *   <li>{@code REMOVE <id>} - {@code REMOVED <id> <true|false>} (the job end: pointer and blob go) or {@code FAIL}</li>
 *   <li>{@code STATS} - {@code STATS <heap used after a full GC> <threads> <cached bytes> <cache max bytes>}</li>
 *   <li>{@code MEMBERS} - {@code MEMBERS <port>:<L|D> ...}: the cluster's members as this member sees them, oldest
 *   (Hazelcast's master) first, each with {@code L} for a lite member (a standby) or {@code D} for a data member</li>
 *   <li>{@code PROMOTE} - a standby (started with {@code -Dit.lite=true}: a Hazelcast lite member, in the cluster
 *   but holding no partitions and no registry) becomes a data member and builds its registry: {@code PROMOTED}</li>
 * </ul>
 * A standby is how the long mode takes JVM start and join out of the time of a trial: after a kill, a standby is
 * promoted and owns its share of the partitions like a member that has just joined.
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

        boolean lite = Boolean.getBoolean("it.lite");
        Config hzConfig = memberConfig(cluster, port, portBase, portCount);
        hzConfig.setLiteMember(lite);
        // a killed member is dropped within about a second anyway (its connections are refused); a longer heartbeat
        // timeout keeps members of a loaded machine from suspecting each other (the long mode sets it)
        hzConfig.setProperty("hazelcast.max.no.heartbeat.seconds", System.getProperty("it.heartbeatTimeoutSeconds",
                "6"));
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(hzConfig);
        ParkingStore store = new ParkingStore(JobInfoStores.open(storageConfigFromSystemProperties()));
        Map<Long, String> armed = new ConcurrentHashMap<>();
        SubmitPhaseListener crashPoints = new SubmitPhaseListener() {
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
        long cacheMax = Long.getLong("it.cache.maxBytes", CacheConfig.DEFAULT_MAX_BYTES);
        java.util.function.Supplier<RunningJobInfoRegistry<JobImmutableInformation>> build = () ->
                RunningJobInfoRegistry.builder(hz, store, CODEC).fencing(true).restoreParallelism(4)
                        .restoreOutageWait(java.time.Duration.ofMillis(Long.getLong("it.restoreOutageWaitMillis",
                                RunningJobInfoRegistry.DEFAULT_RESTORE_OUTAGE_WAIT.toMillis())))
                        .cache(CacheConfig.of(cacheMax, Math.min(cacheMax, CacheConfig.DEFAULT_MAX_ENTRY_BYTES),
                                CacheConfig.DEFAULT_EXPIRE_AFTER_ACCESS))
                        .submitPhaseListener(crashPoints).build();
        java.util.concurrent.atomic.AtomicReference<RunningJobInfoRegistry<JobImmutableInformation>> registries =
                new java.util.concurrent.atomic.AtomicReference<>(lite ? null : build.get());
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
                    RunningJobInfoRegistry<JobImmutableInformation> registry = registries.get();
                    if (registry == null && !w[1].equals("SAFE") && !w[1].equals("PROMOTE")
                            && !w[1].equals("STATS") && !w[1].equals("EXIT") && !w[1].equals("MEMBERS")) {
                        reply(tag, "ERR standby: PROMOTE it first");
                        return;
                    }
                    switch (w[1]) {
                        case "SAFE" -> {
                            // members, cluster safe (asked only when the expected size is seen; bounded: a query
                            // to a member that just died can hang), whether this member is the oldest (master)
                            // (data members: a standby lite member holds no partitions and is not counted)
                            int size = (int) hz.getCluster().getMembers().stream().filter(m -> !m.isLiteMember())
                                    .count();
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
                        case "MEMBERS" -> {
                            StringBuilder list = new StringBuilder("MEMBERS");
                            for (Member m : hz.getCluster().getMembers()) { // oldest first
                                list.append(' ').append(m.getAddress().getPort()).append(':')
                                        .append(m.isLiteMember() ? 'L' : 'D');
                            }
                            reply(tag, list.toString());
                        }
                        case "TAKEOVER" -> reply(tag, "EPOCH " + registry.takeOver());
                        case "SUBMIT" -> {
                            long id = Long.parseLong(w[2]);
                            int bytes = Integer.parseInt(w[3]);
                            if (w.length > 4 && w[4].startsWith("DURING_BLOB:")) {
                                store.arm(id, Long.parseLong(w[4].substring("DURING_BLOB:".length())),
                                        () -> reply(tag, "AT DURING_BLOB"));
                            } else if (w.length > 4) {
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
                        case "GET" -> {
                            long id = Long.parseLong(w[2]);
                            try {
                                reply(tag, registry.get(id).map(j -> "GOT " + id + " " + sha256(CODEC.encode(j)))
                                        .orElse("MISSING " + id));
                            } catch (Exception e) {
                                reply(tag, "FAIL " + id + " " + e.getClass().getSimpleName() + " "
                                        + oneLine(e.getMessage()));
                            }
                        }
                        case "REMOVE" -> {
                            long id = Long.parseLong(w[2]);
                            try {
                                reply(tag, "REMOVED " + id + " " + registry.remove(id));
                            } catch (Exception e) {
                                reply(tag, "FAIL " + id + " " + e.getClass().getSimpleName() + " "
                                        + oneLine(e.getMessage()));
                            }
                        }
                        case "STATS" -> {
                            System.gc();
                            long heap = java.lang.management.ManagementFactory.getMemoryMXBean()
                                    .getHeapMemoryUsage().getUsed();
                            int threads = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount();
                            reply(tag, "STATS " + heap + " " + threads + " "
                                    + (registry == null ? 0 : registry.cachedBytes()) + " "
                                    + (registry == null ? 0 : registry.cacheMaxBytes()));
                        }
                        case "PROMOTE" -> {
                            if (registry == null) {
                                promote(hz);
                                registries.compareAndSet(null, build.get());
                            }
                            reply(tag, "PROMOTED");
                        }
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

    /** Promotes this lite member, retrying while the cluster is changing (a member just died, a join is on). */
    private static void promote(HazelcastInstance hz) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        while (true) {
            try {
                hz.getCluster().promoteLocalLiteMember();
                return;
            } catch (RuntimeException e) {
                if (!hz.getCluster().getLocalMember().isLiteMember()) {
                    return; // the promotion landed, its answer was lost
                }
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static void parkForever() {
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
