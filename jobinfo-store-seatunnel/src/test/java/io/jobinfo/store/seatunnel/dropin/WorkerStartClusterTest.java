package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.MapInterceptor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member whose drop-in cannot start at once (a cluster call of a member that has just joined fails) starts it later,
 * and until then neither moves a job nor lets Hazelcast's start-up fail. A fresh-clone CI run once had a member,
 * restarted after a kill, whose drop-in never started: the exception of its first cluster call escaped the member's
 * {@code STARTED} listener (Hazelcast calls those on SeaTunnel's main thread and catches nothing), the member stayed in
 * the cluster with no drop-in entry, and every other member held its moves back for the rest of the run.
 *
 * <p>The fault is produced on demand by an interceptor on the drop-in members' map that refuses every write while
 * {@link #REFUSING} is set (a fake: no real part fails that write when asked to); the members, the map and the drop-in
 * are real, two Hazelcast members in this JVM that load the plugin by Hazelcast's own service discovery, as in
 * {@link HistoryMoverClusterTest}.
 */
class WorkerStartClusterTest {

    /** While true, every write to {@link DropInMembers#MAP} is refused (on whichever member owns the key). */
    static volatile boolean REFUSING;
    static final AtomicInteger REFUSED = new AtomicInteger();

    @TempDir
    static Path dir;
    static final List<HazelcastInstance> MEMBERS = new ArrayList<>();
    static final String[] PROPERTIES = {"seatunnel.config", DropInSettings.SWEEP_INTERVAL};
    static URLClassLoader plugin;
    static String cluster;

    @BeforeAll
    static void pluginAndConfiguration() throws Exception {
        Path yaml = Files.writeString(dir.resolve("seatunnel.yaml"), String.join("\n",
                "seatunnel:",
                "  engine:",
                "    jobinfo-storage:",
                "      type: local",
                "      namespace: " + dir.resolve("store"),
                ""));
        System.setProperty("seatunnel.config", yaml.toString());
        System.setProperty(DropInSettings.SWEEP_INTERVAL, "1");
        plugin = PluginMembers.pluginLoader(WorkerStartClusterTest.class);
        cluster = "worker-start-" + System.nanoTime();
    }

    @AfterAll
    static void stop() throws Exception {
        REFUSING = false;
        for (HazelcastInstance m : MEMBERS) {
            m.getLifecycleService().terminate();
        }
        for (String p : PROPERTIES) {
            System.clearProperty(p);
        }
        if (plugin != null) {
            plugin.close();
        }
    }

    @Test
    void aMemberWhoseFirstClusterCallsFailStartsItsDropInOnceTheyWork() {
        HazelcastInstance first = member();
        await("the drop-in started on the first member").atMost(Duration.ofSeconds(60))
                .until(() -> active(first));
        first.getMap(DropInMembers.MAP).addInterceptor(new RefuseWhileFlagged());
        REFUSING = true;

        // before the fix, the refused registration was thrown out of the STARTED listener, out of this call
        HazelcastInstance joined = member();
        assertThat(joined.getCluster().getMembers()).hasSize(2);
        await("the joined member's registration refused").atMost(Duration.ofSeconds(30))
                .until(() -> REFUSED.get() > 0);
        assertThat(DropInService.forInstance(joined)).as("the joined member's drop-in service").isNotNull();
        assertThat(active(joined)).as("drop-in active on the joined member while its registration is refused")
                .isFalse();
        Map<com.hazelcast.cluster.Member, String> modes = DropInMembers.modes(first);
        assertThat(modes.get(joined.getCluster().getLocalMember()))
                .as("the joined member as the first one sees it: no drop-in yet, so nothing is moved").isNull();
        int refusedWhileDown = REFUSED.get();

        REFUSING = false;
        await("the drop-in started on the joined member once its registration is accepted")
                .atMost(Duration.ofSeconds(30)).until(() -> active(joined));
        await("the joined member registered as active").atMost(Duration.ofSeconds(30))
                .until(() -> "active".equals(DropInMembers.modes(first).get(joined.getCluster().getLocalMember())));
        assertThat(refusedWhileDown).as("refused writes while the flag was set").isGreaterThanOrEqualTo(1);
    }

    private static boolean active(HazelcastInstance member) {
        DropInService s = DropInService.forInstance(member);
        return s != null && s.active();
    }

    private static HazelcastInstance member() {
        HazelcastInstance member = Hazelcast.newHazelcastInstance(PluginMembers.config(cluster, 16431, plugin));
        MEMBERS.add(member);
        return member;
    }

    /** The fault: refuses every write while {@link #REFUSING} is set. */
    static final class RefuseWhileFlagged implements MapInterceptor {
        private static final long serialVersionUID = 1L;

        @Override
        public Object interceptGet(Object value) {
            return null;
        }

        @Override
        public void afterGet(Object value) {
        }

        @Override
        public Object interceptPut(Object oldValue, Object newValue) {
            if (REFUSING) {
                REFUSED.incrementAndGet();
                throw new IllegalStateException("refused by the test's fault (a member that has just joined)");
            }
            return null;
        }

        @Override
        public void afterPut(Object value) {
        }

        @Override
        public Object interceptRemove(Object removedValue) {
            return null;
        }

        @Override
        public void afterRemove(Object value) {
        }
    }
}
