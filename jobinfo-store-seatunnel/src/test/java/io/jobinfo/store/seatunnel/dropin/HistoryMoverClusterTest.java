package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.NodeEngineImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import io.jobinfo.store.spi.StoreNaming;
import org.apache.seatunnel.api.common.metrics.JobMetrics;
import org.apache.seatunnel.api.common.metrics.Measurement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The history drop-in on the Hazelcast this test runs on: SeaTunnel 2.3.8's 5.1 in this module, the current 5.x in
 * {@code integration-tests}, which runs this module's test-jar again ({@code dependenciesToScan}). Two members in this
 * JVM load the plugin as an engine member does, by Hazelcast's own service discovery ({@code META-INF/services} for
 * {@link DropInServiceProvider} and the serializer hooks, here through the members' configuration class loader, so
 * that no other member of this JVM loads it), with a {@code seatunnel.yaml} of {@code history: all} on a local store.
 * What the mover leans on is version-specific: {@code getEntryViewInternal} (read reflectively), the owner's entry
 * events carrying the stored Data, {@code replace} dropping the TTL and {@code setTtl} giving it back, expiry events.
 * Shown: a value SeaTunnel's {@code JobHistoryService} would put (a real {@link JobMetrics}) becomes a reference with
 * its blob, keeps its expiration time, reads back as the same JSON on both members; a removal and an expiry delete
 * the blob.
 */
class HistoryMoverClusterTest {

    @TempDir
    static Path dir;
    static final List<HazelcastInstance> MEMBERS = new ArrayList<>();
    static final String[] PROPERTIES = {"seatunnel.config", DropInSettings.SWEEP_INTERVAL, DropInSettings.GC_GRACE};
    static Path namespace;
    static URLClassLoader plugin;

    @BeforeAll
    static void startTwoMembersWithThePlugin() throws Exception {
        namespace = dir.resolve("store");
        Path yaml = Files.writeString(dir.resolve("seatunnel.yaml"), String.join("\n",
                "seatunnel:",
                "  engine:",
                "    history-job-expire-minutes: 1440",
                "    jobinfo-storage:",
                "      type: local",
                "      namespace: " + namespace,
                "    jobinfo-dropin:",
                "      history: all",
                ""));
        System.setProperty("seatunnel.config", yaml.toString());
        System.setProperty(DropInSettings.SWEEP_INTERVAL, "1");
        System.setProperty(DropInSettings.GC_GRACE, "2");
        plugin = PluginMembers.pluginLoader(HistoryMoverClusterTest.class);
        String cluster = "history-mover-" + System.nanoTime();
        for (int i = 0; i < 2; i++) {
            MEMBERS.add(Hazelcast.newHazelcastInstance(PluginMembers.config(cluster, 16421, plugin)));
        }
        await("the drop-in started on both members").atMost(Duration.ofSeconds(60))
                .until(() -> MEMBERS.stream().allMatch(m -> m.getCluster().getMembers().size() == 2
                        && DropInService.forInstance(m) != null && DropInService.forInstance(m).active()));
    }

    @AfterAll
    static void stop() throws Exception {
        for (HazelcastInstance m : MEMBERS) {
            m.shutdown();
        }
        for (String p : PROPERTIES) {
            System.clearProperty(p);
        }
        if (plugin != null) {
            plugin.close();
        }
    }

    /**
     * The start thread ({@link WorkerStart}) can start the history movers while the member shuts down: what it
     * starts after {@link HistoryStores#close()} began must not keep running. Before the fix, a start after close left
     * one worker thread and one entry listener per history map behind. Counted on these stores' own movers, not on
     * the JVM's threads: the members' movers of this class and of earlier classes start and end on their own time
     * (a JVM-wide count failed once in CI for that reason).
     */
    @Test
    void historyMoversStartedAfterCloseAreStoppedAgain() throws Exception {
        HazelcastInstance member = MEMBERS.get(0);
        NodeEngineImpl engine = ((HazelcastInstanceProxy) member).getOriginal().node.getNodeEngine();
        DropInSettings settings = DropInSettings.load(System.getProperties());
        HistoryStores h = HistoryStores.open(settings, member.getConfig().getClusterName(),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), new DropInMetrics(),
                engine.getLogger(HistoryStores.class));
        h.close();
        h.start(member, engine.getSerializationService(), settings, engine.getLogger(HistoryMover.class), () -> true);
        await("no history mover of the closed stores still running").atMost(Duration.ofSeconds(10))
                .until(() -> h.runningMovers() == 0);
    }

    @Test
    void aFinishedJobsMetricsMoveToTheStoreKeepTheirExpiryAndReadBackEqualOnEveryMember() throws Exception {
        long jobId = 900_000_000_001L;
        JobMetrics metrics = JobMetrics.of(Collections.singletonMap("SourceReceivedCount", Collections.singletonList(
                Measurement.of("SourceReceivedCount", 4242L, 1_700_000_000_000L,
                        Collections.singletonMap("pipelineId", "1")))));
        IMap<Long, Object> map = MEMBERS.get(0).getMap(HistoryMaps.METRICS);
        // as JobHistoryService does: put with history-job-expire-minutes as the TTL
        map.put(jobId, metrics, 10, TimeUnit.MINUTES);
        long expiresAt = map.getEntryView(jobId).getExpirationTime();
        assertThat(expiresAt).isLessThan(Long.MAX_VALUE);

        awaitReference(HistoryMaps.METRICS, jobId);
        Path blob = blobPath(HistoryMaps.METRICS, jobId);
        assertThat(blob).as("the value's blob").exists();
        for (HazelcastInstance m : MEMBERS) {
            IMap<Long, Object> seen = m.getMap(HistoryMaps.METRICS);
            // as REST serves them (JobMetrics' own equals does not hold across a serialization round trip)
            Object read = seen.get(jobId);
            assertThat(read).as("the metrics read on %s", m.getName()).isInstanceOf(JobMetrics.class);
            assertThat(((JobMetrics) read).toJsonString()).as("the metrics read on %s", m.getName())
                    .isEqualTo(metrics.toJsonString());
            // replace() drops the TTL on these versions; the mover's setTtl gives the entry back its expiry
            assertThat(seen.getEntryView(jobId).getExpirationTime()).as("the reference's expiry on %s", m.getName())
                    .isBetween(expiresAt - 1_000, expiresAt + 1_000);
        }
        assertThat(movedOnAllMembers()).isGreaterThanOrEqualTo(1);

        map.remove(jobId);
        await("the blob of a removed history entry gone from " + blob).atMost(Duration.ofSeconds(30))
                .until(() -> !Files.exists(blob));
    }

    @Test
    void anExpiredHistoryEntryTakesItsBlobWithIt() throws Exception {
        long jobId = 900_000_000_002L;
        IMap<Long, Object> map = MEMBERS.get(1).getMap(HistoryMaps.DAG);
        map.put(jobId, "a finished job's DAG information " + "d".repeat(2_000), 6, TimeUnit.SECONDS);
        awaitReference(HistoryMaps.DAG, jobId);
        Path blob = blobPath(HistoryMaps.DAG, jobId);
        assertThat(blob).exists();
        await("the entry (6 s TTL) and its blob " + blob + " gone").atMost(Duration.ofSeconds(40))
                .until(() -> !map.containsKey(jobId) && !Files.exists(blob));
    }

    /** Waits until the owner stores a history reference for {@code jobId} in {@code mapName} (its raw Data's type). */
    static void awaitReference(String mapName, long jobId) {
        HazelcastInstance member = MEMBERS.get(0);
        @SuppressWarnings("unchecked")
        IMap<Long, Object> map = member.getMap(mapName);
        HistoryEntries entries = new HistoryEntries(map, nodeEngine(member).getSerializationService());
        await("job " + jobId + " in " + mapName + " a reference").atMost(Duration.ofSeconds(30)).until(() -> {
            HistoryEntries.Stored stored = entries.read(jobId);
            return stored != null && stored.value.getType() == HistoryReferenceSerializer.TYPE_ID;
        });
    }

    static long movedOnAllMembers() {
        long moved = 0;
        for (HazelcastInstance m : MEMBERS) {
            moved += DropInService.forInstance(m).metrics().snapshot().get("historyMoved");
        }
        return moved;
    }

    /** The file of {@code jobId}'s blob in {@code map}'s sub-namespace of the local store. */
    static Path blobPath(String map, long jobId) {
        return Path.of(HistoryMaps.subNamespace(namespace.toString(), map)).resolve(StoreNaming.blobName(jobId));
    }

    static NodeEngineImpl nodeEngine(HazelcastInstance member) {
        return ((HazelcastInstanceProxy) member).getOriginal().node.getNodeEngine();
    }
}
