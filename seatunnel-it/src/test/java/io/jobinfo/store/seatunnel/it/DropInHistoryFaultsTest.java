package io.jobinfo.store.seatunnel.it;

import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.seatunnel.ReferenceData;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.seatunnel.dropin.HistoryMaps;
import io.jobinfo.store.seatunnel.dropin.HistoryReferenceSerializer;
import io.jobinfo.store.seatunnel.dropin.HistoryReferenceV1Serializer;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.MapFigures;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.RestClient;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.spi.StoreNaming;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.MAPS;
import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.REFERENCE_BYTES;
import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.awaitReferencesOnly;
import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.blobFiles;
import static io.jobinfo.store.seatunnel.it.DropInHistoryMapsTest.blobsOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, item 2: the running-job path's fault classes for the history maps ({@code jobinfo-dropin.history: all}),
 * on one real SeaTunnel 2.3.8 cluster (2 member processes, local store, sweep 2 s, gc grace 3 s) shared by the tests,
 * in order: a store outage while two jobs end; one bad value beside good ones; a reference whose entry lost its TTL;
 * reused ids (after an expiry, and with the old blob still there); a member's kill -9 (partial view). Values other
 * than the two jobs' are the jobs' own history values put as raw Data by a client, with a TTL, as SeaTunnel puts them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DropInHistoryFaultsTest {

    static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("DropInHistoryFaultsTest").toAbsolutePath();
    /** A store of this run's own: a file left by an earlier run is never read. */
    static final Path STORE = DIR.resolve("store-" + System.nanoTime());
    static final String METRICS = "engine_finishedJobMetrics";
    static final String STATE = "engine_finishedJobState";
    /** "engine_finishedJobState job 123 stays inline for now": the history mover's WARN of a failed move. */
    static final Pattern MOVE_WARNING = Pattern.compile("(engine_finished\\w+) job (\\d+) stays inline for now");

    /** The two jobs of the outage test and their history values (the blobs' payloads), by map and job id. */
    static final List<Long> JOBS = new ArrayList<>();
    static final Map<String, Map<Long, byte[]>> ORIGINALS = new LinkedHashMap<>();
    /** The ids every map holds (and so must have a blob of) from one test to the next. */
    static final Map<String, Set<Long>> LIVE = new HashMap<>();

    static ClusterSpec spec() {
        try {
            Files.createDirectories(STORE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ClusterSpec.stock("st-history-faults", 2)
                .withEngineYaml(DropInChecks.storageYaml(STORE) + """
                        jobinfo-dropin:
                          history: all
                        history-job-expire-minutes: 10
                        """)
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Djobinfo.dropin.gc-grace-seconds=3",
                        "-Dhazelcast.internal.map.expiration.task.period.seconds=1"));
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(DropInHistoryFaultsTest::spec,
            Duration.ofSeconds(120));

    /**
     * Store outage: the store's directory is replaced by a file while two 1 x 2 batch jobs run to their end. Their
     * history stays inline and REST job-info answers it on both members; the failed moves are counted
     * ({@code historyMoveFailures}) and retried with backoff, each value logged at WARN once (before, a WARN per value
     * per sweep); once the store is back every value is moved with no operator action: references only, one blob per
     * job and map.
     */
    @Test
    @Order(1)
    void duringAStoreOutageHistoryStaysInlineAndServedAndAfterItEveryValueIsMoved() throws Exception {
        ClusterClient client = ST.client();
        DropInFaultClassesTest.awaitActive(client);
        long failuresBefore = client.dropInTotal("historyMoveFailures");
        Path aside = STORE.resolveSibling(STORE.getFileName() + "-aside");
        Files.move(STORE, aside);
        Files.writeString(STORE, "not a directory: the store is down");
        Instant down = Instant.now();
        long failures;
        try {
            for (int i = 0; i < 2; i++) {
                JOBS.add(client.submit(FakeJobs.write(DIR.resolve("jobs"), "history-fault-" + i, 1, 2, false),
                        "history-fault-" + i));
            }
            for (long id : JOBS) {
                client.awaitStatus(id, "FINISHED", Duration.ofSeconds(120));
            }
            // SeaTunnel puts a job's state after the job reads FINISHED
            ClusterClient.await(() -> MAPS.stream().allMatch(m -> client.mapFigures(m).ownedEntries() == JOBS.size()),
                    Duration.ofSeconds(30), () -> "history entries of " + JOBS + ": " + figures(client));
            // retries meet the outage for 8 s at least
            ClusterClient.await(() -> Duration.between(down, Instant.now()).toSeconds() >= 8
                    && client.dropInTotal("historyMoveFailures") - failuresBefore >= 2L * MAPS.size() * JOBS.size(),
                    Duration.ofSeconds(60), () -> "history move failures during the outage: "
                            + (client.dropInTotal("historyMoveFailures") - failuresBefore));
            for (String map : MAPS) {
                MapFigures f = client.mapFigures(map);
                assertThat(f.totalBytes()).as("%s during the outage, inline (more than %d B per entry): %s", map,
                        REFERENCE_BYTES, f).isGreaterThan(REFERENCE_BYTES * f.ownedEntries());
            }
            RestClient rest = new RestClient();
            for (int port : List.of(ST.cluster().port(0), ST.cluster().port(1))) {
                for (long id : JOBS) {
                    RestClient.Response r = rest.get(port, RestClient.JOB_INFO + id);
                    assertThat(r.status()).as("job-info of %d on member %d during the outage: %s", id, port,
                            r.body()).isEqualTo(200);
                    assertThat(r.body()).as("job-info of %d on member %d during the outage", id, port)
                            .contains("\"metrics\"").contains("FINISHED").contains("history-fault-");
                }
            }
            failures = client.dropInTotal("historyMoveFailures") - failuresBefore;
        } finally {
            Files.delete(STORE);
            Files.move(aside, STORE);
        }
        for (String map : MAPS) {
            awaitReferencesOnly(client, map, JOBS.size(), "after the store came back (" + failures + " failed moves)");
            Map<Long, byte[]> files = blobFiles(blobsOf(STORE, map));
            assertThat(files.keySet()).as("%s blobs after the outage", map).containsExactlyInAnyOrderElementsOf(JOBS);
            Map<Long, byte[]> payloads = new LinkedHashMap<>();
            for (long id : JOBS) {
                payloads.put(id, BlobEnvelope.verify(files.get(id), id, io.jobinfo.store.location.Location.of("test", map)).payload());
            }
            ORIGINALS.put(map, payloads);
            LIVE.put(map, new TreeSet<>(JOBS));
        }
        // one WARN per value for the whole outage (fewer than 10 attempts each), not one per attempt
        Map<String, Integer> warned = moveWarnings();
        int lines = warned.values().stream().mapToInt(Integer::intValue).sum();
        assertThat(warned.values()).as("WARN lines per history value during the outage (%d failed moves): %s",
                failures, warned).allMatch(n -> n == 1);
        assertThat(failures).as("failed moves (%d) against WARN lines (%d): the retries are counted, not logged",
                failures, lines).isGreaterThan(lines);
    }

    /**
     * One bad value: in {@code engine_finishedJobMetrics}, beside good values, a Data with a running-job reference's
     * type id (with a TTL) and a history reference's type id whose bytes are no reference (no TTL: the sweep's TTL
     * repair reads it), both on ids the master owns. Each is left alone (no blob), logged once with its job id over
     * several sweeps and counted once ({@code notOffloadable}); the good values are moved, a later one too, and the
     * master's gc keeps running: an old blob with no entry is deleted. (Before the fix the unreadable reference made
     * the master's whole sweep fail at every run, so its gc never ran.)
     */
    @Test
    @Order(2)
    void aBadValueIsLeftAloneReportedOnceAndTheOtherValuesMoveAndTheGcRuns() throws Exception {
        ClusterClient client = ST.client();
        IMap<Long, Object> metrics = map(client, METRICS);
        int master = client.masterPort();
        long badType = client.newJobIdOwnedBy(master);
        long badReference = client.newJobIdOwnedBy(master);
        long good = client.newJobId();
        long orphan = client.newJobId();
        long counted = client.dropInTotal("notOffloadable");
        // what a lost delete leaves: an old blob with no entry, which the gc must remove
        Path orphanFile = blobsOf(STORE, METRICS).resolve(StoreNaming.blobName(orphan));
        Files.write(orphanFile, BlobEnvelope.wrap(orphan, 3, System.currentTimeMillis() - 3_600_000,
                ORIGINALS.get(METRICS).get(JOBS.get(0))));
        Files.setLastModifiedTime(orphanFile, FileTime.from(Instant.now().minusSeconds(3600)));

        byte[] payload = ORIGINALS.get(METRICS).get(JOBS.get(0));
        metrics.set(badType, data(ReferenceData.TYPE_ID, Arrays.copyOfRange(payload, 8, payload.length)), 300,
                TimeUnit.SECONDS);
        metrics.set(badReference, data(HistoryReferenceSerializer.TYPE_ID, new byte[] {1, 2}), 0, TimeUnit.SECONDS);
        metrics.set(good, new HeapData(ORIGINALS.get(METRICS).get(JOBS.get(1))), 300, TimeUnit.SECONDS);
        Instant put = Instant.now();
        ClusterClient.await(() -> blobFiles(blobsOf(STORE, METRICS)).containsKey(good)
                        && client.dropInTotal("notOffloadable") - counted >= 2 && !Files.exists(orphanFile),
                Duration.ofSeconds(30), () -> "after the bad values: blobs " + blobFiles(blobsOf(STORE, METRICS))
                        .keySet() + ", notOffloadable +" + (client.dropInTotal("notOffloadable") - counted)
                        + ", the orphan " + orphan + " still there: " + Files.exists(orphanFile));
        // three sweeps more: still reported once, counted once
        ClusterClient.await(() -> Duration.between(put, Instant.now()).toSeconds() >= 6, Duration.ofSeconds(20),
                () -> "");
        long later = client.newJobId();
        metrics.set(later, new HeapData(ORIGINALS.get(METRICS).get(JOBS.get(0))), 300, TimeUnit.SECONDS);
        LIVE.get(METRICS).addAll(List.of(good, later));
        ClusterClient.await(() -> blobFiles(blobsOf(STORE, METRICS)).containsKey(later), Duration.ofSeconds(30),
                () -> "no blob of " + later + " put beside the bad values");
        assertThat(blobFiles(blobsOf(STORE, METRICS)).keySet()).as("metrics blobs: the bad values %d and %d have none",
                badType, badReference).containsExactlyInAnyOrderElementsOf(LIVE.get(METRICS));
        assertThat(client.dropInTotal("notOffloadable") - counted).as("bad values counted").isEqualTo(2);
        for (long bad : List.of(badType, badReference)) {
            long reports = memberLogLines().stream().filter(l -> l.contains("the value of job " + bad + " in "
                    + METRICS)).count();
            assertThat(reports).as("WARN lines naming bad value %d after %d s of sweeps", bad,
                    Duration.between(put, Instant.now()).toSeconds()).isEqualTo(1);
        }
        metrics.delete(badType);
        metrics.delete(badReference);
        awaitReferencesOnly(client, METRICS, LIVE.get(METRICS).size(), "once the bad values were removed");
    }

    /**
     * The sweep's TTL repair: a reference's entry loses its TTL (the client sets it to 0, forever, as a crash between
     * the mover's replace and its setTtl leaves it); the sweep gives it back the expiry the reference records, so the
     * entry expires when SeaTunnel's TTL said (8 s after the put), and its blob goes with it.
     */
    @Test
    @Order(3)
    void aReferenceThatLostItsTtlExpiresWhenItsRecordedExpirySays() {
        ClusterClient client = ST.client();
        IMap<Long, Object> state = map(client, STATE);
        long id = client.newJobId();
        long putAt = System.currentTimeMillis();
        state.set(id, new HeapData(ORIGINALS.get(STATE).get(JOBS.get(0))), 8, TimeUnit.SECONDS);
        awaitReferencesOnly(client, STATE, LIVE.get(STATE).size() + 1, "after the put of " + id);
        assertThat(blobFiles(blobsOf(STORE, STATE))).as("blob of %d", id).containsKey(id);
        state.setTtl(id, 0, TimeUnit.SECONDS);
        assertThat(state.containsKey(id)).as("entry %d after its TTL was taken away", id).isTrue();
        ClusterClient.await(() -> !state.containsKey(id), Duration.ofSeconds(30),
                () -> "entry " + id + " still there " + (System.currentTimeMillis() - putAt) + " ms after a put with"
                        + " a TTL of 8 s: the sweep did not put the reference's expiry back");
        long goneAfter = System.currentTimeMillis() - putAt;
        assertThat(goneAfter).as("ms from the put to the entry's expiry (TTL 8 s)").isBetween(7_000L, 16_000L);
        ClusterClient.await(() -> !blobFiles(blobsOf(STORE, STATE)).containsKey(id), Duration.ofSeconds(15),
                () -> "the blob of " + id + " after its entry expired");
    }

    /**
     * Reused ids. (a) Job 0's history is put again with a TTL of 4 s (moved again), expires (its blobs deleted), and
     * job 1's values are put under job 0's id: they are moved, the blobs hold job 1's bytes, and REST job-info of job
     * 0 on both members (whose caches held job 0's values) answers job 1's. (b) A new value arrives while an old blob
     * of its id is still there (what a failed or held delete leaves; written by the test): the old blob is replaced,
     * the blob holds the new bytes.
     */
    @Test
    @Order(4)
    void aReusedIdIsMovedAgainAndNoStaleBlobIsServed() throws Exception {
        ClusterClient client = ST.client();
        RestClient rest = new RestClient();
        long reused = JOBS.get(0);
        long other = JOBS.get(1);
        for (int port : List.of(ST.cluster().port(0), ST.cluster().port(1))) {
            assertThat(rest.get(port, RestClient.JOB_INFO + reused).body()).as("job-info of %d, cached", reused)
                    .contains("history-fault-0");
        }
        for (String map : MAPS) {
            map(client, map).set(reused, new HeapData(ORIGINALS.get(map).get(reused)), 4, TimeUnit.SECONDS);
        }
        ClusterClient.await(() -> MAPS.stream().allMatch(m -> !map(client, m).containsKey(reused)
                        && !blobFiles(blobsOf(STORE, m)).containsKey(reused)), Duration.ofSeconds(30),
                () -> "job " + reused + " put again with a TTL of 4 s: " + MAPS.stream().map(m -> m + " entry "
                        + map(client, m).containsKey(reused) + " blob " + blobFiles(blobsOf(STORE, m))
                        .containsKey(reused)).toList());
        for (String map : MAPS) {
            map(client, map).set(reused, new HeapData(ORIGINALS.get(map).get(other)), 300, TimeUnit.SECONDS);
        }
        for (String map : MAPS) {
            awaitReferencesOnly(client, map, LIVE.get(map).size(), "after job " + other + "'s values were put under "
                    + reused);
            byte[] blob = blobFiles(blobsOf(STORE, map)).get(reused);
            assertThat(blob).as("%s blob of the reused id %d", map, reused).isNotNull();
            assertThat(BlobEnvelope.verify(blob, reused, io.jobinfo.store.location.Location.of("test", map)).payload()).as("%s blob of %d holds job %d's value", map,
                    reused, other).isEqualTo(ORIGINALS.get(map).get(other));
        }
        for (int port : List.of(ST.cluster().port(0), ST.cluster().port(1))) {
            RestClient.Response r = rest.get(port, RestClient.JOB_INFO + reused);
            assertThat(r.status()).as("job-info of %d on member %d: %s", reused, port, r.body()).isEqualTo(200);
            assertThat(r.body()).as("job-info of the reused id %d on member %d", reused, port)
                    .contains("history-fault-1").doesNotContain("history-fault-0");
        }

        // (b) the old blob still there when the new value arrives
        long id = client.newJobId();
        Path stale = blobsOf(STORE, STATE).resolve(StoreNaming.blobName(id));
        Files.write(stale, BlobEnvelope.wrap(id, 3, System.currentTimeMillis() - 60_000,
                ORIGINALS.get(STATE).get(reused)));
        map(client, STATE).set(id, new HeapData(ORIGINALS.get(STATE).get(other)), 300, TimeUnit.SECONDS);
        LIVE.get(STATE).add(id);
        awaitReferencesOnly(client, STATE, LIVE.get(STATE).size(), "after a value put over the old blob of " + id);
        assertThat(BlobEnvelope.verify(blobFiles(blobsOf(STORE, STATE)).get(id), id, io.jobinfo.store.location.Location.of("test", STATE)).payload())
                .as("blob of %d: the new value, not the old blob's", id).isEqualTo(ORIGINALS.get(STATE).get(other));
    }

    /**
     * Partial view: a kill -9 of the master (the other member promotes the backups and becomes master, its gc among
     * them) while twenty more entries per map are there; while it is gone, every entry that exists keeps its blob
     * (the blob listing is checked every 0.5 s for 8 s), and after its restart every map is references only with
     * every blob present.
     */
    @Test
    @Order(5)
    @EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true", disabledReason = "a member's kill and"
            + " restart cost ~35 s more than the default build's share; run with -Djobinfo.it.long=true")
    void whileAMemberIsGoneNoBlobOfAnExistingEntryIsDeleted() throws Exception {
        ClusterClient client = ST.client();
        for (String map : MAPS) {
            IMap<Long, Object> m = map(client, map);
            for (int i = 0; i < 20; i++) {
                long id = client.newJobId();
                m.set(id, new HeapData(ORIGINALS.get(map).get(JOBS.get(i % 2))), 300, TimeUnit.SECONDS);
                LIVE.get(map).add(id);
            }
        }
        for (String map : MAPS) {
            awaitReferencesOnly(client, map, LIVE.get(map).size(), "before the kill");
        }
        int killed = ST.cluster().indexOfPort(client.masterPort());
        ST.cluster().kill(killed);
        Instant gone = Instant.now();
        int samples = 0;
        while (Duration.between(gone, Instant.now()).toMillis() < 8_000) {
            for (String map : MAPS) {
                assertThat(blobFiles(blobsOf(STORE, map)).keySet()).as("%s blobs %d ms after the master's kill", map,
                        Duration.between(gone, Instant.now()).toMillis()).containsAll(LIVE.get(map));
            }
            samples++;
            Thread.sleep(500);
        }
        ST.cluster().restart(killed);
        client.awaitClusterSize(2, Duration.ofSeconds(120));
        for (String map : MAPS) {
            awaitReferencesOnly(client, map, LIVE.get(map).size(), "after the member's restart");
            assertThat(blobFiles(blobsOf(STORE, map)).keySet()).as("%s blobs after the restart (%d samples while"
                    + " the member was gone)", map, samples).containsExactlyInAnyOrderElementsOf(LIVE.get(map));
        }
    }

    /**
     * An upgrade from an earlier drop-in: the history maps hold references of the first format ("JIH1": the whole
     * pointer with its store id, then the expiry), which this drop-in no longer writes. Such a reference (written here
     * as the earlier drop-in wrote it, with its blob: job 1's values under a new id) is served by REST job-info on
     * both members, left as it is (no second blob, no rewrite), and its blob goes when its entry is removed.
     */
    @Test
    @Order(6)
    void aReferenceOfTheFirstFormatIsServedAndItsBlobGoesWithItsEntry() throws Exception {
        ClusterClient client = ST.client();
        RestClient rest = new RestClient();
        long id = client.newJobId();
        long source = JOBS.get(1);
        long expiresAt = System.currentTimeMillis() + 300_000;
        com.hazelcast.internal.serialization.InternalSerializationService serialization =
                new com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder().build();
        Map<String, byte[]> blobs = new LinkedHashMap<>();
        for (String map : MAPS) {
            byte[] payload = ORIGINALS.get(map).get(source);
            byte[] blob = BlobEnvelope.wrap(id, 3, expiresAt, payload);
            Files.write(blobsOf(STORE, map).resolve(StoreNaming.blobName(id)), blob);
            blobs.put(map, blob);
            String storeId;
            try (JobInfoStore store = JobInfoStores.open(HistoryMaps.storageOf(
                    JobInfoStorageConfig.builder("local").namespace(STORE.toString()).build(), map))) {
                storeId = store.storeId();
            }
            JobInfoPointer pointer = new JobInfoPointer(id, expiresAt, storeId,
                    BlobEnvelope.headerFor(id, 3, expiresAt, payload));
            com.hazelcast.internal.nio.BufferObjectDataOutput out = serialization.createObjectDataOutput();
            pointer.writeData(out);
            out.writeLong(expiresAt);
            map(client, map).set(id, data(HistoryReferenceV1Serializer.TYPE_ID, out.toByteArray()), 300,
                    TimeUnit.SECONDS);
        }
        for (int port : List.of(ST.cluster().port(0), ST.cluster().port(1))) {
            RestClient.Response r = rest.get(port, RestClient.JOB_INFO + id);
            assertThat(r.status()).as("job-info of %d (first-format references) on member %d: %s", id, port,
                    r.body()).isEqualTo(200);
            assertThat(r.body()).as("job-info of %d on member %d", id, port).contains("history-fault-1")
                    .doesNotContain("history-fault-0");
        }
        ClusterClient.await(() -> Duration.ofMillis(System.currentTimeMillis() - (expiresAt - 300_000))
                .toSeconds() >= 5, Duration.ofSeconds(20), () -> ""); // two sweeps
        for (String map : MAPS) {
            assertThat(blobFiles(blobsOf(STORE, map)).get(id)).as("%s blob of %d after two sweeps", map, id)
                    .isEqualTo(blobs.get(map));
            map(client, map).delete(id);
        }
        ClusterClient.await(() -> MAPS.stream().noneMatch(m -> blobFiles(blobsOf(STORE, m)).containsKey(id)),
                Duration.ofSeconds(30), () -> "blobs of " + id + " after its first-format entries were removed: "
                        + MAPS.stream().filter(m -> blobFiles(blobsOf(STORE, m)).containsKey(id)).toList());
    }

    private static IMap<Long, Object> map(ClusterClient client, String name) {
        return client.seaTunnelClient().getHazelcastInstance().getMap(name);
    }

    /** A Hazelcast Data of type {@code type} holding {@code payload}. */
    private static HeapData data(int type, byte[] payload) {
        return new HeapData(ByteBuffer.allocate(8 + payload.length).putInt(0).putInt(type).put(payload).array());
    }

    private static String figures(ClusterClient client) {
        return MAPS.stream().map(m -> m + " " + client.mapFigures(m)).toList().toString();
    }

    /** The lines of both members' logs (the current run of each). */
    private static List<String> memberLogLines() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            lines.addAll(Files.readAllLines(ST.cluster().log(i)));
        }
        return lines;
    }

    /** How many history move WARN lines each "map job" has in the members' logs. */
    private static Map<String, Integer> moveWarnings() throws IOException {
        Map<String, Integer> out = new java.util.TreeMap<>();
        for (String line : memberLogLines()) {
            Matcher m = MOVE_WARNING.matcher(line);
            if (m.find()) {
                out.merge(m.group(1) + " " + m.group(2), 1, Integer::sum);
            }
        }
        return out;
    }
}
