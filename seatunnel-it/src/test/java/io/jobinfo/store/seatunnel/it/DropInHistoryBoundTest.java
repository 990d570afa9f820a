package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.MapFigures;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.RestClient;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.MAPS;
import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.awaitReferencesOnly;
import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.blobFiles;
import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.blobsOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, item 4: the count bound {@code jobinfo-dropin: history-max-retained: 5} on a real SeaTunnel 2.3.8 cluster
 * (2 member processes, the plugin jar, a local store, {@code history: all}, {@code history-job-expire-minutes: 30}, so
 * that no entry expires during the test). Three 1 x 2 batch jobs run to their end and are moved (references only in
 * the three history maps, a blob each); then five more. Eight jobs are more than five: the master removes the three
 * oldest (the first three, which ended first) from all three maps, and the removal's events delete their blobs, as an
 * expiry's do. Asserted: each map holds exactly the five later jobs, the three first are in none of them, the blobs of
 * each map's sub-namespace are the five later jobs' only, REST finished-jobs lists none of the three, and the members'
 * counters count three jobs removed over the bound.
 */
class DropInHistoryBoundTest {

    static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("DropInHistoryBoundTest").toAbsolutePath();
    static final int BOUND = 5;

    @Test
    void theMasterKeepsAtMostTheBoundOfFinishedJobsRemovingTheOldestFromEveryHistoryMapWithTheirBlobs()
            throws Exception {
        long run = System.nanoTime();
        Path store = DIR.resolve("store-" + run);
        ClusterSpec spec = ClusterSpec.stock("st-history-bound", 2)
                .withEngineYaml(DropInChecks.storageYaml(store) + """
                        jobinfo-dropin:
                          history: all
                          history-max-retained: %d
                        history-job-expire-minutes: 30
                        """.formatted(BOUND))
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2"));
        try (SeaTunnelProcessCluster cluster = new SeaTunnelProcessCluster(spec, DIR.resolve("cluster-" + run))) {
            cluster.start();
            try (ClusterClient client = new ClusterClient(spec)) {
                DropInHistoryMapsTest.awaitActive(cluster, client);
                List<Long> first = runJobs(client, "first", 3);
                for (String map : MAPS) {
                    awaitReferencesOnly(client, map, first.size(), "after the first jobs' end");
                    assertThat(blobFiles(blobsOf(store, map)).keySet()).as("%s blobs of the first jobs", map)
                            .containsExactlyInAnyOrderElementsOf(first);
                }
                assertThat(client.dropInTotal("historyRemovedOverBound")).as("3 jobs are within the bound")
                        .isZero();

                List<Long> later = runJobs(client, "later", BOUND);
                for (String map : MAPS) {
                    ClusterClient.await(() -> {
                        MapFigures f = client.mapFigures(map);
                        return f.ownedEntries() == BOUND && blobFiles(blobsOf(store, map)).size() == BOUND;
                    }, Duration.ofSeconds(40), () -> map + ": " + client.mapFigures(map) + ", blobs "
                            + blobFiles(blobsOf(store, map)).keySet() + "; first " + first + ", later " + later);
                    awaitReferencesOnly(client, map, BOUND, "after the bound was enforced");
                    var m = client.seaTunnelClient().getHazelcastInstance().getMap(map);
                    for (long id : first) {
                        assertThat(m.containsKey(id)).as("%s: the oldest job %d is removed", map, id).isFalse();
                    }
                    for (long id : later) {
                        assertThat(m.containsKey(id)).as("%s: the later job %d is kept", map, id).isTrue();
                    }
                    assertThat(blobFiles(blobsOf(store, map)).keySet()).as("%s: blobs of the kept jobs only", map)
                            .containsExactlyInAnyOrderElementsOf(later);
                }
                RestClient.Response finished = new RestClient().get(cluster.port(0),
                        "/hazelcast/rest/maps/finished-jobs");
                assertThat(finished.status()).isEqualTo(200);
                for (long id : first) {
                    assertThat(finished.body()).as("finished-jobs after the bound").doesNotContain("\"" + id + "\"");
                }
                for (long id : later) {
                    assertThat(finished.body()).as("finished-jobs after the bound").contains("\"" + id + "\"");
                }
                assertThat(client.dropInTotal("historyRemovedOverBound")).as("jobs removed over the bound: %s",
                        client.dropInMetrics()).isEqualTo(first.size());
                assertThat(client.dropInTotal("historyBlobsDeleted")).as("their blobs' deletes: %s",
                        client.dropInMetrics()).isGreaterThanOrEqualTo((long) MAPS.size() * first.size());
            }
        }
    }

    /** {@code count} 1 x 2 batch jobs at once, each to FINISHED. */
    private static List<Long> runJobs(ClusterClient client, String name, int count) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(client.submit(FakeJobs.write(DIR.resolve("jobs"), "bound-" + name + "-" + i, 1, 2, false),
                    "bound-" + name + "-" + i));
        }
        for (long id : ids) {
            client.awaitStatus(id, "FINISHED", Duration.ofSeconds(120));
        }
        return ids;
    }
}
