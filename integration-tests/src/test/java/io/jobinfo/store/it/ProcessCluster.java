package io.jobinfo.store.it;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * A Hazelcast cluster whose members are separate JVMs ({@link MemberProcess}), on ports {@code portBase..portBase+
 * portCount-1} of the suite's range 5701-5799, with a cluster name of its own.
 */
final class ProcessCluster implements AutoCloseable {

    private final String clusterName;
    private final int portBase;
    private final int portCount;
    private final JobInfoStorageConfig storage;
    private final Path logDir;
    private final List<MemberProcess> members = new ArrayList<>();
    private final List<HazelcastInstance> clients = new ArrayList<>();
    private final List<String> jvmOptions;
    private int nextPort;
    private int started;
    private volatile long pollMillis = 200;

    ProcessCluster(String prefix, int portBase, int portCount, JobInfoStorageConfig storage) throws Exception {
        this(prefix, portBase, portCount, storage, List.of("-Xmx384m"));
    }

    /** With these JVM options for every member (heap size, {@code -Dit.cache.maxBytes=...}). */
    ProcessCluster(String prefix, int portBase, int portCount, JobInfoStorageConfig storage, List<String> jvmOptions)
            throws Exception {
        this.jvmOptions = List.copyOf(jvmOptions);
        if (portBase < 5701 || portBase + portCount - 1 > 5799) {
            throw new IllegalArgumentException("member ports must lie in 5701-5799");
        }
        this.clusterName = prefix + "-" + UUID.randomUUID();
        this.portBase = portBase;
        this.portCount = portCount;
        this.storage = storage;
        this.nextPort = portBase;
        this.logDir = Path.of("target", "member-logs", clusterName);
        Files.createDirectories(logDir);
    }

    String clusterName() {
        return clusterName;
    }

    /** How often {@link #awaitSafe} and {@link #master} ask the members again (200 ms unless set). */
    ProcessCluster pollEvery(Duration interval) {
        this.pollMillis = interval.toMillis();
        return this;
    }

    /** Starts {@code n} members: the first alone (so it is the oldest, the master), the others in parallel. */
    List<MemberProcess> start(int n) throws Exception {
        List<MemberProcess> out = new ArrayList<>();
        out.add(addMember());
        List<CompletableFuture<MemberProcess>> rest = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            rest.add(addMemberAsync());
        }
        for (CompletableFuture<MemberProcess> f : rest) {
            out.add(f.get());
        }
        awaitSafe(n, Duration.ofSeconds(90));
        return out;
    }

    synchronized int takePort() {
        int p = nextPort++;
        if (nextPort >= portBase + portCount) {
            nextPort = portBase; // ports of killed members are free again
        }
        return p;
    }

    MemberProcess addMember() throws Exception {
        return addMember(false);
    }

    /**
     * Starts a standby: a member JVM in the cluster as a Hazelcast lite member (no partitions, no registry) that
     * {@link #promoteStandby} turns into a data member. It joins after every member started before it, so it is
     * younger than all of them and never the master while they live.
     */
    MemberProcess addStandby() throws Exception {
        return addMember(true);
    }

    CompletableFuture<MemberProcess> addStandbyAsync() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return addStandby();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * Promotes the oldest live standby to a data member (see {@link MemberMain}'s {@code PROMOTE}). Oldest in
     * Hazelcast's member list (join order, asked of a live member with {@code MEMBERS}), not in the order the
     * standby JVMs reported that they were up: standbys started at the same time may join in another order, and
     * a younger standby promoted before an older one would leave a lite member older than a data member, which
     * becomes Hazelcast's master (a lite member with no registry) once the data members before it are killed.
     */
    MemberProcess promoteStandby(Duration timeout) throws Exception {
        MemberProcess standby = oldestStandby();
        standby.promote(timeout);
        return standby;
    }

    private MemberProcess oldestStandby() throws Exception {
        List<MemberProcess> standbys;
        synchronized (members) {
            standbys = members.stream().filter(m -> m.alive() && m.standby()).toList();
        }
        if (standbys.isEmpty()) {
            throw new IllegalStateException("no standby member is up");
        }
        for (MemberProcess asked : live()) {
            String reply;
            try {
                reply = asked.call("MEMBERS", Duration.ofSeconds(30));
            } catch (Exception e) {
                continue; // died or busy: ask the next one
            }
            for (String m : reply.substring("MEMBERS".length()).trim().split(" ")) {
                if (m.endsWith(":L")) {
                    int port = Integer.parseInt(m.substring(0, m.length() - 2));
                    for (MemberProcess s : standbys) {
                        if (s.port() == port) {
                            return s;
                        }
                    }
                }
            }
        }
        return standbys.get(0);
    }

    /** Hazelcast's member list as {@code member} sees it ({@code MEMBERS}: ports oldest first, L/D), for errors. */
    static String memberList(MemberProcess member) {
        try {
            return member.call("MEMBERS", Duration.ofSeconds(10));
        } catch (Exception e) {
            return "(" + member.name() + " did not answer MEMBERS: " + e + ")";
        }
    }

    private MemberProcess addMember(boolean standby) throws Exception {
        int port;
        String name;
        synchronized (this) {
            port = takePort();
            name = (standby ? "standby" : "member") + (started++) + "-" + port;
        }
        List<String> jvm = new ArrayList<>(jvmOptions);
        if (standby) {
            jvm.add("-Dit.lite=true");
        }
        MemberProcess m = MemberProcess.start(name, clusterName, port, portBase, portCount, storage, logDir, jvm);
        synchronized (members) {
            members.add(m);
        }
        return m;
    }

    CompletableFuture<MemberProcess> addMemberAsync() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return addMember();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    List<MemberProcess> live() {
        synchronized (members) {
            return members.stream().filter(MemberProcess::alive).toList();
        }
    }

    /** The live members that hold data: every live member but unpromoted standbys. */
    List<MemberProcess> liveData() {
        synchronized (members) {
            return members.stream().filter(m -> m.alive() && !m.standby()).toList();
        }
    }

    /**
     * Waits until every live data member sees {@code size} data members and all partitions have their backups
     * (standbys are not counted).
     */
    void awaitSafe(int size, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            List<MemberProcess> live = liveData();
            boolean ok = live.size() == size;
            StringBuilder seen = new StringBuilder();
            for (MemberProcess m : live) {
                String[] r = m.call("SAFE " + size, Duration.ofSeconds(30)).split(" ");
                seen.append(m.name()).append('=').append(String.join("/", r)).append(' ');
                ok &= Integer.parseInt(r[1]) == size && Boolean.parseBoolean(r[2]);
            }
            if (ok) {
                return;
            }
            last = seen.toString();
            Thread.sleep(pollMillis);
        }
        throw new TimeoutException("cluster did not settle at " + size + " members: " + last);
    }

    /** The live member that considers itself the oldest (Hazelcast's master), once exactly one does. */
    MemberProcess master(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<MemberProcess> masters = new ArrayList<>();
            for (MemberProcess m : live()) { // standbys too: a lite member can be the oldest
                if (Boolean.parseBoolean(m.call("SAFE 0", Duration.ofSeconds(30)).split(" ")[3])) {
                    masters.add(m);
                }
            }
            if (masters.size() == 1) {
                MemberProcess m = masters.get(0);
                if (!m.standby()) {
                    return m;
                }
                String view = memberList(m);
                if (List.of(view.split(" ")).contains(m.port() + ":D")) {
                    m.promoted(); // its PROMOTE landed but the answer did not reach us
                    return m;
                }
                throw new IllegalStateException("Hazelcast's master is the standby " + m + ", a lite member with no"
                        + " registry (" + view + "): a standby joined before a data member that is still alive, or"
                        + " standbys were promoted out of their join order");
            }
            Thread.sleep(pollMillis);
        }
        StringBuilder views = new StringBuilder();
        for (MemberProcess m : live()) {
            views.append("; ").append(m.name()).append(m.standby() ? " (standby)" : "").append(" sees ")
                    .append(memberList(m));
        }
        throw new TimeoutException("no single master among the data members " + liveData() + " (live: " + live()
                + views + ")");
    }

    /** A Hazelcast client of this cluster in the test JVM (closed with the cluster). */
    HazelcastInstance newClient(int invocationTimeoutSeconds) {
        return newClient(invocationTimeoutSeconds, java.util.Map.of());
    }

    /** Like {@link #newClient(int)} with these client properties on top (for example the retry pause). */
    HazelcastInstance newClient(int invocationTimeoutSeconds, java.util.Map<String, String> properties) {
        ClientConfig cc = new ClientConfig();
        cc.setClusterName(clusterName);
        cc.setProperty("hazelcast.logging.type", "slf4j");
        cc.setProperty("hazelcast.phone.home.enabled", "false");
        cc.setProperty("hazelcast.client.invocation.timeout.seconds", Integer.toString(invocationTimeoutSeconds));
        cc.setProperty("hazelcast.client.heartbeat.interval", "1000");
        cc.setProperty("hazelcast.client.heartbeat.timeout", "8000");
        properties.forEach(cc::setProperty);
        for (int p = portBase; p < portBase + portCount; p++) {
            cc.getNetworkConfig().addAddress("127.0.0.1:" + p);
        }
        cc.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(60_000);
        JobInfoSerialization.configure(JavaDeserializationFilter.restrict(cc));
        HazelcastInstance client = HazelcastClient.newHazelcastClient(cc);
        clients.add(client);
        return client;
    }

    @Override
    public void close() {
        for (HazelcastInstance c : clients) {
            try {
                c.shutdown();
            } catch (RuntimeException ignored) {
                // already gone
            }
        }
        synchronized (members) {
            members.forEach(MemberProcess::kill9);
        }
    }
}
