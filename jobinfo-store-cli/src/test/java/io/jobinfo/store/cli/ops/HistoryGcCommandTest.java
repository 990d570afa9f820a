package io.jobinfo.store.cli.ops;

import static io.jobinfo.store.cli.ops.OpsFixture.args;
import static io.jobinfo.store.cli.ops.OpsFixture.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.map.IMap;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.seatunnel.dropin.HistoryMaps;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gc --history} on a real two-member cluster and a real local store: the drop-in's history blobs under
 * {@code <namespace>/history/<map>} whose job id has no entry in the map are listed by a dry run (nothing deleted;
 * a map that does not exist on the cluster is not looked at, nor created), refused for deletion while a history map
 * does not exist on the cluster and its blobs are there (nothing deleted in any map), and deleted
 * past the grace period; a blob whose id has an entry (whatever it holds: the values are SeaTunnel's, never read
 * here) and a blob younger than the grace are kept.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HistoryGcCommandTest {

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
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void historyGcListsDeletesPastGraceTheBlobsWithoutEntriesAndKeepsEveryOneAnEntryNames() throws Exception {
        Path storeDir = dir.resolve("store");
        Path yaml = OpsFixture.storageYaml(dir, storeDir);
        List<String> conn = OpsFixture.connection(cluster, "engine_runningJobInfo", yaml);
        JobInfoStorageConfig main = JobInfoStorageConfig.fromYaml(yaml);
        IMap<Long, Object> metrics = cluster.master().getMap(HistoryMaps.METRICS);
        IMap<Long, Object> state = cluster.master().getMap(HistoryMaps.STATE);
        // values the tool cannot and need not read (SeaTunnel's JobMetrics or a drop-in reference in a real cluster)
        metrics.set(1L, "metrics of job 1");
        metrics.set(2L, "metrics of job 2");
        state.set(1L, "state of job 1");
        blobs(main, HistoryMaps.METRICS, 1, 2, 3, 4, 5);
        blobs(main, HistoryMaps.STATE, 1, 6);
        blobs(main, HistoryMaps.DAG, 7);
        for (long id : new long[] {1, 2, 3, 4}) {
            age(blob(storeDir, HistoryMaps.METRICS, id), Duration.ofHours(3));
        }
        age(blob(storeDir, HistoryMaps.METRICS, 5), Duration.ofMinutes(10)); // an orphan, but young
        age(blob(storeDir, HistoryMaps.STATE, 1), Duration.ofHours(3));
        age(blob(storeDir, HistoryMaps.STATE, 6), Duration.ofHours(3));
        age(blob(storeDir, HistoryMaps.DAG, 7), Duration.ofHours(3));

        // a dry run lists the orphans of every map and deletes none
        OpsFixture.Run dry = cli(args(conn, "gc", "--history", "--json", "--progress", "none"));
        assertThat(dry.exit()).as(dry.err()).isZero();
        JsonNode d = JSON.readTree(dry.out());
        assertThat(d.get("history").asBoolean()).isTrue();
        assertThat(d.get("dryRun").asBoolean()).isTrue();
        assertThat(d.get("maps")).hasSize(3);
        JsonNode m = report(d, HistoryMaps.METRICS);
        assertThat(ids(m.get("orphans"))).containsExactlyInAnyOrder(3L, 4L);
        assertThat(m.get("referenced").asInt()).isEqualTo(2);
        assertThat(m.get("young").asInt()).isEqualTo(1);
        assertThat(m.get("deleted")).isEmpty();
        assertThat(m.get("undecodable")).as("no value is read").isEmpty();
        assertThat(ids(report(d, HistoryMaps.STATE).get("orphans"))).containsExactly(6L);
        // the DAG map does not exist on this cluster: not looked at, and not created by the dry run
        assertThat(report(d, HistoryMaps.DAG).get("mapMissing").asBoolean()).isTrue();
        assertThat(report(d, HistoryMaps.DAG).get("blobs").asLong()).isEqualTo(1);
        assertThat(blobsLeft(storeDir, HistoryMaps.METRICS)).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L);
        assertThat(blobsLeft(storeDir, HistoryMaps.STATE)).containsExactlyInAnyOrder(1L, 6L);
        assertThat(blobsLeft(storeDir, HistoryMaps.DAG)).containsExactly(7L);
        OpsFixture.Run text = cli(args(conn, "gc", "--history", "--progress", "none"));
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains("against map " + HistoryMaps.METRICS).contains("DRY RUN")
                .contains("ORPHAN job 3").contains("ORPHAN job 6")
                .contains("map " + HistoryMaps.DAG + ": the map does not exist on this cluster; its 1 blob(s)");
        assertThat(OpsSession.mapExists(cluster.master(), HistoryMaps.DAG)).as("not created by a dry run").isFalse();

        // the DAG map does not exist on this cluster while its sub-namespace holds a blob: a wrong cluster looks
        // the same, so a delete is refused, and nothing is deleted in any map
        OpsFixture.Run refused = cli(args(conn, "gc", "--history", "--delete", "--progress", "none"));
        assertThat(refused.exit()).as(refused.err()).isEqualTo(2);
        assertThat(refused.err().strip()).doesNotContain("\n")
                .contains("the history map '" + HistoryMaps.DAG + "' does not exist").contains("--force");
        assertThat(blobsLeft(storeDir, HistoryMaps.METRICS)).hasSize(5);
        assertThat(blobsLeft(storeDir, HistoryMaps.STATE)).hasSize(2);

        // once the map exists (all its entries expired), the real run deletes the orphans past grace
        IMap<Long, Object> dag = cluster.master().getMap(HistoryMaps.DAG);
        dag.set(99L, "expired");
        dag.delete(99L);
        OpsFixture.Run delete = cli(args(conn, "gc", "--history", "--delete", "--json", "--progress", "none"));
        assertThat(delete.exit()).as(delete.err()).isZero();
        JsonNode r = JSON.readTree(delete.out());
        assertThat(r.get("dryRun").asBoolean()).isFalse();
        assertThat(ids(report(r, HistoryMaps.METRICS).get("deleted"))).containsExactlyInAnyOrder(3L, 4L);
        assertThat(ids(report(r, HistoryMaps.STATE).get("deleted"))).containsExactly(6L);
        assertThat(ids(report(r, HistoryMaps.DAG).get("deleted"))).containsExactly(7L);
        assertThat(blobsLeft(storeDir, HistoryMaps.METRICS)).as("named by an entry, or young")
                .containsExactlyInAnyOrder(1L, 2L, 5L);
        assertThat(blobsLeft(storeDir, HistoryMaps.STATE)).containsExactly(1L);
        assertThat(blobsLeft(storeDir, HistoryMaps.DAG)).isEmpty();
        assertThat(metrics.get(1L)).isEqualTo("metrics of job 1");
    }

    private static JsonNode report(JsonNode run, String map) {
        for (JsonNode n : run.get("maps")) {
            if (map.equals(n.get("map").asText())) {
                return n;
            }
        }
        throw new AssertionError("no report of " + map + " in " + run);
    }

    private static void blobs(JobInfoStorageConfig main, String map, long... ids) throws Exception {
        try (JobInfoStore store = JobInfoStores.open(HistoryMaps.storageOf(main, map))) {
            for (long id : ids) {
                store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, 3, new byte[200])));
            }
        }
    }

    private static Path blob(Path storeDir, String map, long id) {
        return storeDir.resolve("history").resolve(map).resolve(StoreNaming.blobName(id));
    }

    private static List<Long> blobsLeft(Path storeDir, String map) throws Exception {
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= 10; id++) {
            if (Files.exists(blob(storeDir, map, id))) {
                ids.add(id);
            }
        }
        return ids;
    }

    private static void age(Path file, Duration by) throws Exception {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(by)));
    }

    private static List<Long> ids(JsonNode array) {
        List<Long> ids = new ArrayList<>();
        array.forEach(n -> ids.add(n.get("jobId").asLong()));
        return ids;
    }
}
