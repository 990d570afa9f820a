package io.jobinfo.store.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.map.IMap;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.lifecycle.DeleteMarker;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gc} holding after a recorded partition loss, {@code rebuild-pointers}, acknowledging, and {@code inspect}
 * of a delete claim, through the CLI on a real two-member cluster. A real loss (members killed beyond the backup
 * count) is produced by {@code PartitionLossTest} in the integration tests; here its two effects are written
 * directly, as that test shows them to be: the members' record in {@code <map>.incidents} and the missing pointers.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class IncidentCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void gcHoldsAfterALossRebuildPointersPutsThemBackAndAnAcknowledgementReleasesGc() throws Exception {
        String mapName = "incidents-" + System.nanoTime();
        Path storeDir = Files.createDirectories(dir.resolve("store"));
        Path yaml = OpsFixture.storageYaml(dir, storeDir);
        List<String> conn = OpsFixture.connection(cluster, mapName, yaml);
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        JobGenerator gen = new JobGenerator(5);
        Map<Long, Object> pointers = new HashMap<>();
        int lostPartition = cluster.master().getPartitionService().getPartition(1L).getPartitionId();
        try (JobInfoStore store = OpsFixture.openStore(yaml);
             RunningJobInfoRegistry<JobImmutableInformation> registry = RunningJobInfoRegistry
                     .builder(cluster.master(), store, OpsFixture.CODEC).mapName(mapName).build()) {
            for (long id = 1; id <= 40; id++) {
                registry.submit(id, 1_600_000_000_000L + id, gen.generate(id, 2_000));
                pointers.put(id, map.get(id));
            }
        }
        for (Path blob : Files.list(storeDir).toList()) {
            Files.setLastModifiedTime(blob, FileTime.from(Instant.now().minus(Duration.ofHours(3))));
        }
        // the loss: the pointers of one partition are gone, and a member recorded it
        List<Long> lost = pointers.keySet().stream().filter(id -> cluster.master().getPartitionService()
                .getPartition(id).getPartitionId() == lostPartition).sorted().toList();
        assertThat(lost).contains(1L);
        lost.forEach(map::delete);
        new IncidentLog(cluster.master(), mapName).record(new ClusterIncident(ClusterIncident.Kind.PARTITION_LOST,
                mapName, lostPartition, Instant.now(), "127.0.0.1:5801"));

        OpsFixture.Run held = OpsFixture.cli(OpsFixture.args(conn, "gc", "--delete", "--json"));
        assertThat(held.exit()).as(held.err()).isEqualTo(1);
        JsonNode report = JSON.readTree(held.out());
        assertThat(report.get("held").asBoolean()).isTrue();
        assertThat(report.get("deleted")).isEmpty();
        assertThat(report.get("openIncidents").get(0).asText()).contains("partition " + lostPartition);
        OpsFixture.Run heldText = OpsFixture.cli(OpsFixture.args(conn, "gc", "--delete"));
        assertThat(heldText.out()).contains("HELD: partition " + lostPartition).contains("Nothing was deleted")
                .contains("rebuild-pointers");
        for (long id : lost) {
            assertThat(Files.list(storeDir).anyMatch(p -> p.getFileName().toString()
                    .startsWith(String.format("%016x", id)))).as("blob of lost job %d kept", id).isTrue();
        }

        OpsFixture.Run dry = OpsFixture.cli(OpsFixture.args(conn, "rebuild-pointers"));
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("DRY RUN").contains("WOULD REBUILD job 1 ");
        assertThat(map.keySet()).doesNotContainAnyElementsOf(lost);

        OpsFixture.Run applied = OpsFixture.cli(OpsFixture.args(conn, "rebuild-pointers", "--apply", "--json"));
        assertThat(applied.exit()).as(applied.err()).isZero();
        JsonNode rebuilt = JSON.readTree(applied.out());
        assertThat(rebuilt.get("partitions").get(0).asInt()).isEqualTo(lostPartition);
        assertThat(rebuilt.get("candidates")).hasSize(lost.size());
        for (long id : lost) {
            assertThat(map.get(id)).as("job %d", id).isEqualTo(pointers.get(id)); // timestamp included
        }

        OpsFixture.Run ack = OpsFixture.cli(OpsFixture.args(conn, "gc", "--delete", "--acknowledge-incidents",
                "--json"));
        assertThat(ack.exit()).as(ack.err()).isZero();
        JsonNode after = JSON.readTree(ack.out());
        assertThat(after.get("held").asBoolean()).isFalse();
        assertThat(after.get("orphans")).isEmpty();
        assertThat(after.get("referenced").asInt()).isEqualTo(40);

        OpsFixture.Run nothing = OpsFixture.cli(OpsFixture.args(conn, "rebuild-pointers"));
        assertThat(nothing.exit()).isEqualTo(2);
        assertThat(nothing.err()).contains("no partition loss or merge").contains("--all-partitions");
    }

    @Test
    void inspectShowsADeleteClaimAsNoJob() throws Exception {
        String mapName = "claim-inspect-" + System.nanoTime();
        Path storeDir = Files.createDirectories(dir.resolve("store2"));
        Path yaml = OpsFixture.storageYaml(dir, storeDir);
        List<String> conn = OpsFixture.connection(cluster, mapName, yaml);
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        map.put(9L, DeleteMarker.claim(9L, "remove", Instant.parse("2026-12-01T10:00:00Z")));
        OpsFixture.Run run = OpsFixture.cli(OpsFixture.args(conn, "inspect", "9", "--json"));
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode r = JSON.readTree(run.out());
        assertThat(r.get("value").asText()).isEqualTo("being deleted");
        assertThat(r.get("deleteClaim").get("owner").asText()).isEqualTo("remove");
        assertThat(r.get("problems")).isEmpty();
        OpsFixture.Run verify = OpsFixture.cli(OpsFixture.args(conn, "verify", "--json"));
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        assertThat(map.get(9L)).isInstanceOf(DeleteMarker.class);
        assertThat(map.get(9L)).isNotInstanceOf(JobInfoPointer.class);
    }
}
