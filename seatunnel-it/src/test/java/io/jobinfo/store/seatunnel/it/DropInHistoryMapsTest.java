package io.jobinfo.store.seatunnel.it;

import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.MapFigures;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.RestClient;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, item 2: a real SeaTunnel 2.3.8 cluster (2 member processes, the plugin jar, a local store,
 * {@code jobinfo-dropin: history: all}, {@code history-job-expire-minutes}: 2, 10 in long mode) runs ten 1 x 2 batch
 * jobs to their end, and in long mode ({@code -Djobinfo.it.long=true}) 200 of them and a 110 x 20 batch job (~348 KB
 * of metrics inline; {@link #SMALL_JOBS}). Then,
 * for each of {@code engine_finishedJobMetrics}, {@code engine_finishedJobState} and
 * {@code engine_finishedJobVertexInfo}:
 * <ol>
 *   <li>the map holds references only: fewer than 1 KB of cluster heap per entry (owned + backup), one blob per job
 *   in {@code <namespace>/history/<map>};</li>
 *   <li>a kill -9 of the master and its restart change none of it (still references only, every blob there);</li>
 *   <li>REST {@code job-info/<id>} of every job and {@code finished-jobs} answer, byte for byte, what they answer once
 *   the test has put every job's original values back inline in the three maps, as a stock cluster holds them (the
 *   blobs' verified bytes put as raw Data by a client, without a TTL, which the drop-in never moves);</li>
 *   <li>a new value put with a TTL of 8 s under every id (job i gets job i+1's original value), as SeaTunnel's next
 *   pipeline end puts merged metrics, is moved again (references only, every blob now holds the new value: the
 *   superseded one was deleted first), and the entries expire 8 s later although Hazelcast 5.1's compare-and-set
 *   drops an entry's TTL (the mover sets it again; without that, seen here, the references were still there 40 s
 *   later): the maps are empty and no history blob is left, deleted by the expiry events (the gc's grace is 10
 *   minutes here, so the gc deleted none of them).</li>
 * </ol>
 */
class DropInHistoryMapsTest {

    static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("DropInHistoryMapsTest").toAbsolutePath();
    static final List<String> MAPS = List.of("engine_finishedJobMetrics", "engine_finishedJobState",
            "engine_finishedJobVertexInfo");
    static final String FINISHED_JOBS = "/hazelcast/rest/maps/finished-jobs";
    static final boolean LONG = Boolean.getBoolean("jobinfo.it.long");
    /**
     * Cluster bytes of one reference entry, owned plus backup, at most: issue 27's goal of 1 KB of cluster heap per
     * retained job over the three maps (1024 / 3). The compact reference's entry is 158 B per replica as
     * {@code LocalMapStats} counts it (the first format's was 191 B: 382 per entry, 1,146 per job).
     */
    static final long REFERENCE_BYTES = 1024 / 3;
    /**
     * How many 1 x 2 batch jobs run: 10 in the default build, 200 in long mode (issue 27's must-show), or
     * {@code -Djobinfo.it.history.jobs=N}.
     */
    static final int SMALL_JOBS = Integer.getInteger("jobinfo.it.history.jobs", LONG ? 200 : 10);
    /** Jobs submitted at once. */
    static final int WAVE = 20;

    @Test
    void finishedJobsHistoryIsReferencesServedAsStockAndItsBlobsGoWhenTheEntriesExpire() throws Exception {
        long run = System.nanoTime();
        Path store = DIR.resolve("store-" + run);
        ClusterSpec spec = ClusterSpec.stock("st-history-dropin", 2)
                .withEngineYaml(DropInChecks.storageYaml(store) + """
                        jobinfo-dropin:
                          history: all
                        history-job-expire-minutes: %d
                        """.formatted(LONG ? 30 : 2))
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Dhazelcast.internal.map.expiration.task.period.seconds=1"));
        try (SeaTunnelProcessCluster cluster = new SeaTunnelProcessCluster(spec, DIR.resolve("cluster-" + run))) {
            cluster.start();
            try (ClusterClient client = new ClusterClient(spec)) {
                awaitActive(cluster, client);
                List<Long> ids = runJobs(client);

                // 1. references only, one blob per job in each map's sub-namespace
                Map<String, Map<Long, byte[]>> originals = new LinkedHashMap<>();
                for (String map : MAPS) {
                    awaitReferencesOnly(client, map, ids.size(), "after the jobs' end");
                    Path blobs = blobsOf(store, map);
                    Map<Long, byte[]> files = blobFiles(blobs);
                    assertThat(files.keySet()).as("one %s blob per job", map).containsExactlyInAnyOrderElementsOf(ids);
                    Map<Long, byte[]> payloads = new LinkedHashMap<>();
                    for (long id : ids) {
                        payloads.put(id, BlobEnvelope.verify(files.get(id), id, io.jobinfo.store.location.Location.of("test", blobs.toString())).payload());
                    }
                    originals.put(map, payloads);
                }

                // the members' counters (MBean and telemetry) count every move: one per job and map
                assertThat(client.dropInTotal("historyMoved")).as("history moves counted: %s", client.dropInMetrics())
                        .isGreaterThanOrEqualTo((long) MAPS.size() * ids.size());

                // a master kill in between changes none of it: kill -9 of the master, the other member takes its
                // partitions over (the backups), the killed member starts again; still references only, no blob lost
                int master = cluster.indexOfPort(client.masterPort());
                cluster.kill(master);
                client.awaitClusterSize(1, Duration.ofSeconds(60));
                cluster.restart(master);
                client.awaitClusterSize(2, Duration.ofSeconds(120));
                for (String map : MAPS) {
                    awaitReferencesOnly(client, map, ids.size(), "after the master's kill and restart");
                    assertThat(blobFiles(blobsOf(store, map)).keySet()).as("%s blobs after the master's kill", map)
                            .containsExactlyInAnyOrderElementsOf(ids);
                }

                // 2. REST answers with references, then with the original values inline (no TTL: never moved), on
                // the member that took over, and on the restarted one (its cache cold: every answer read from the
                // store)
                RestClient rest = new RestClient();
                int port = cluster.port(1 - master);
                ClusterClient.await(() -> answersOk(rest, cluster.port(master)), Duration.ofSeconds(60),
                        () -> "the restarted member's REST does not answer");
                Map<String, String> restarted = answers(rest, cluster.port(master), ids);
                Map<String, String> drop = answers(rest, port, ids);
                for (String map : MAPS) {
                    IMap<Long, Object> m = client.seaTunnelClient().getHazelcastInstance().getMap(map);
                    originals.get(map).forEach((id, payload) -> m.set(id, new HeapData(payload), 0, TimeUnit.SECONDS));
                    MapFigures inline = client.mapFigures(map);
                    assertThat(inline.totalBytes()).as("%s: the original values are inline again: %s", map, inline)
                            .isGreaterThan(ids.size() * 1024L);
                }
                Map<String, String> stock = answers(rest, port, ids);
                assertThat(drop.get(FINISHED_JOBS)).as("finished-jobs lists every job")
                        .contains(ids.stream().map(id -> "\"" + id + "\"").toList());
                for (Map.Entry<String, String> e : stock.entrySet()) {
                    assertThat(drop.get(e.getKey())).as("GET %s: references against inline values", e.getKey())
                            .isEqualTo(e.getValue());
                    if (e.getKey().startsWith(RestClient.JOB_INFO)) {
                        // the listing's order is the iteration order of the member asked; one job's answer is not
                        assertThat(restarted.get(e.getKey())).as("GET %s on the restarted member", e.getKey())
                                .isEqualTo(e.getValue());
                    }
                }

                // 3. a new value with a TTL under every id (as SeaTunnel's merged metrics): job i gets job i+1's
                Map<String, Map<Long, byte[]>> next = new LinkedHashMap<>();
                for (String map : MAPS) {
                    Map<Long, byte[]> values = new LinkedHashMap<>();
                    for (int i = 0; i < ids.size(); i++) {
                        values.put(ids.get(i), originals.get(map).get(ids.get((i + 1) % ids.size())));
                    }
                    next.put(map, values);
                    IMap<Long, Object> m = client.seaTunnelClient().getHazelcastInstance().getMap(map);
                    values.forEach((id, payload) -> m.set(id, new HeapData(payload), 8, TimeUnit.SECONDS));
                }
                long putAt = System.currentTimeMillis();
                for (String map : MAPS) {
                    awaitReferencesOnly(client, map, ids.size(), "after the values were put again");
                    Map<Long, byte[]> rewritten = blobFiles(blobsOf(store, map));
                    assertThat(rewritten.keySet()).containsExactlyInAnyOrderElementsOf(ids);
                    for (long id : ids) {
                        assertThat(BlobEnvelope.verify(rewritten.get(id), id, io.jobinfo.store.location.Location.of("test", map)).payload())
                                .as("%s job %d: the blob of the new value replaced the old one", map, id)
                                .isEqualTo(next.get(map).get(id));
                    }
                }
                ClusterClient.await(() -> MAPS.stream().allMatch(map -> client.mapFigures(map).ownedEntries() == 0
                                && blobFiles(blobsOf(store, map)).isEmpty()), Duration.ofSeconds(40 + ids.size() / 5),
                        () -> "8 s TTL, " + (System.currentTimeMillis() - putAt) + " ms after the put: "
                                + MAPS.stream().map(map -> map + " " + client.mapFigures(map) + ", blobs left "
                                + blobFiles(blobsOf(store, map)).keySet()).toList());
                // the expiry deletes, all after the restart, so both members' counters hold them; a member counts a
                // delete just after the blob is gone, so the last one may be counted a moment after the await above
                // (seen once: 29 of 30 read, 30 in the same failure message)
                ClusterClient.await(() -> client.dropInTotal("historyBlobsDeleted") >= (long) MAPS.size() * ids.size(),
                        Duration.ofSeconds(10), () -> "history deletes counted: " + client.dropInMetrics());
            }
        }
    }

    /** Waits until both members are up and their drop-in is active. */
    static void awaitActive(SeaTunnelProcessCluster cluster, ClusterClient client) {
        ClusterClient.await(() -> client.members().size() == 2, Duration.ofSeconds(120),
                () -> "the members did not start: " + cluster.logTail(0, 4000));
        client.awaitDropInActive(Duration.ofSeconds(60));
    }

    static Path blobsOf(Path store, String map) {
        return store.resolve("history").resolve(map);
    }

    /**
     * {@link #SMALL_JOBS} 1 x 2 batch jobs, {@link #WAVE} at a time, each to FINISHED, and in long mode
     * ({@code -Djobinfo.it.long=true}) one 110 x 20 batch job too (about 100 s more on 2 shared cores).
     */
    private static List<Long> runJobs(ClusterClient client) {
        List<Long> ids = new ArrayList<>();
        if (LONG) {
            ids.add(client.submit(FakeJobs.write(DIR.resolve("jobs"), "history-large", 110, 20, false),
                    "history-large"));
        }
        Path small = FakeJobs.write(DIR.resolve("jobs"), "history-small", 1, 2, false);
        List<Long> wave = new ArrayList<>();
        for (int i = 0; i < SMALL_JOBS; i++) {
            wave.add(client.submit(small, "history-small-" + i));
            if (wave.size() == WAVE || i == SMALL_JOBS - 1) {
                for (long id : wave) {
                    client.awaitStatus(id, "FINISHED", Duration.ofSeconds(180));
                }
                ids.addAll(wave);
                wave.clear();
            }
        }
        for (long id : ids) {
            client.awaitStatus(id, "FINISHED", Duration.ofSeconds(180));
        }
        return ids;
    }

    /**
     * Waits until every entry is a reference: {@link #REFERENCE_BYTES} per entry at most in all. A bound of 1 KB per
     * entry in all let one inline state entry (2.8 KB owned + backup) through beside nine references, and the blob
     * listing then missed that job (seen once in a fresh-clone CI run): SeaTunnel puts a job's state after the job
     * reads FINISHED.
     */
    static void awaitReferencesOnly(ClusterClient client, String map, int jobs, String when) {
        ClusterClient.await(() -> {
            MapFigures f = client.mapFigures(map);
            return f.ownedEntries() == jobs && f.totalBytes() <= REFERENCE_BYTES * jobs;
        }, Duration.ofSeconds(30 + jobs / 5), () -> map + " " + when + ": " + client.mapFigures(map) + " for " + jobs
                + " jobs, not references only");
        MapFigures f = client.mapFigures(map);
        assertThat(f.totalBytes() / f.ownedEntries()).as("%s: cluster bytes per entry %s", map, when)
                .isLessThan(1024L);
    }

    /** Whether the member at {@code port} answers finished-jobs (false while it cannot be reached yet). */
    private static boolean answersOk(RestClient rest, int port) {
        try {
            return rest.get(port, FINISHED_JOBS).status() == 200;
        } catch (IllegalStateException notYet) {
            return false;
        }
    }

    /** GET job-info of every job and finished-jobs on the member at {@code port}. */
    private static Map<String, String> answers(RestClient rest, int port, List<Long> ids) {
        Map<String, String> out = new TreeMap<>();
        for (long id : ids) {
            RestClient.Response r = rest.get(port, RestClient.JOB_INFO + id);
            assertThat(r.status()).as("job-info of %d: %s", id, r.body()).isEqualTo(200);
            assertThat(r.body()).as("job-info of %d", id).contains("\"metrics\"").contains("FINISHED");
            out.put(RestClient.JOB_INFO + id, r.body());
        }
        RestClient.Response all = rest.get(port, FINISHED_JOBS);
        assertThat(all.status()).as("finished-jobs: %s", all.body()).isEqualTo(200);
        out.put(FINISHED_JOBS, all.body());
        return out;
    }

    /** The history blobs in {@code dir} by job id (the namespace's claim left out). */
    static Map<Long, byte[]> blobFiles(Path dir) {
        Map<Long, byte[]> out = new TreeMap<>();
        EngineSoakAudit.blobPaths(dir).forEach((id, p) -> {
            try {
                out.put(id, Files.readAllBytes(p));
            } catch (java.nio.file.NoSuchFileException deletedSinceListed) {
                // deleted between the listing and the read (an expiry the caller waits for): not there
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return out;
    }
}
