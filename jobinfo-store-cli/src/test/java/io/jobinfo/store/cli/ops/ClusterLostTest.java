package io.jobinfo.store.cli.ops;

import static io.jobinfo.store.cli.ops.OpsFixture.args;
import static io.jobinfo.store.cli.ops.OpsFixture.cli;
import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The whole cluster goes away during a migration: the tool stops, says so and exits with 3. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClusterLostTest {

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
    void aClusterLostMidRunStopsTheMigrationWithExitThree() throws Exception {
        String mapName = "lost-" + System.nanoTime();
        OpsFixture.putInline(cluster.master().getMap(mapName), OpsFixture.encodedJobs(1, 300, 32 * 1024));
        Path storeDir = dir.resolve("store");
        List<String> conn = OpsFixture.connection(cluster, mapName, OpsFixture.storageYaml(dir, storeDir));
        conn.set(conn.indexOf("--connect-timeout") + 1, "2s");

        CompletableFuture<OpsFixture.Run> run = CompletableFuture.supplyAsync(() ->
                cli(args(conn, "migrate", "--parallelism", "1", "--progress", "none")));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (OpsFixture.countBlobs(storeDir) < 20 && !run.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(run.isDone()).as("the migration was still running").isFalse();
        long lostAt = System.nanoTime();
        cluster.close();

        OpsFixture.Run result = run.get(60, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - lostAt)).isLessThan(Duration.ofSeconds(45));
        assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(3);
        assertThat(result.err()).contains("connection to the cluster was lost").contains("rerun");
        assertThat(result.out()).contains("Interrupted");
        assertThat(OpsFixture.countBlobs(storeDir)).isLessThan(300);
    }
}
