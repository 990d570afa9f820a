package io.jobinfo.store.ops;

import io.jobinfo.store.lifecycle.OrphanRule;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GarbageCollectorTest {

    private static HazelcastTestCluster cluster;
    private static final KryoJobInfoCodec<TestJob> CODEC = TestJob.codec();

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
    void deletesOnlyOldUnreferencedBlobsAndLeftovers() throws Exception {
        LocalJobInfoStore store = LocalJobInfoStore.open(dir, null, true, true);
        String mapName = "gc-" + System.nanoTime();
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        TestJobGenerator gen = new TestJobGenerator(1);
        try (RunningJobInfoRegistry<TestJob> registry = RunningJobInfoRegistry
                .builder(cluster.master(), store, CODEC).mapName(mapName).build()) {
            registry.submit(1, gen.generate(1, 5000));                 // referenced by a pointer
        }
        map.put(2L, new InlineJobInfo(1, CODEC.id(), CODEC.encode(gen.generate(2, 5000))));
        writeBlob(store, 2);                                            // referenced by an inline value
        writeBlob(store, 3);                                            // orphan
        writeBlob(store, 4);                                            // orphan, but young
        Path leftover = dir.resolve(StoreNaming.tempName(5, "crashed"));
        Files.write(leftover, new byte[100]);                           // interrupted write
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        for (long id : new long[] {1, 2, 3}) {
            Files.setLastModifiedTime(store.path(id), FileTime.from(now.minus(Duration.ofHours(3))));
        }
        Files.setLastModifiedTime(store.path(4), FileTime.from(now.minus(Duration.ofMinutes(10))));
        Files.setLastModifiedTime(leftover, FileTime.from(now.minus(Duration.ofHours(2))));
        GarbageCollector gc = new GarbageCollector(map, store, Duration.ofHours(1), Clock.fixed(now, ZoneOffset.UTC));

        GcReport dryRun = gc.run(false, b -> { });
        assertThat(dryRun.orphans()).extracting(StoredBlob::jobId).containsExactly(3L);
        assertThat(dryRun.leftovers()).extracting(StoredBlob::jobId).containsExactly(5L);
        // jobs 1 and 2 (the namespace claim the registry wrote is no job: neither counted nor reported)
        assertThat(dryRun.referenced()).isEqualTo(2);
        assertThat(dryRun.young()).isEqualTo(1);
        assertThat(dryRun.deleted()).isEmpty();
        assertThat(Files.exists(store.path(3))).isTrue();

        GcReport real = gc.run(true, b -> { });
        assertThat(real.deleted()).extracting(StoredBlob::jobId).containsExactlyInAnyOrder(3L, 5L);
        assertThat(Files.exists(store.path(3))).isFalse();
        assertThat(Files.exists(leftover)).isFalse();
        for (long kept : new long[] {1, 2, 4}) {
            assertThat(Files.exists(store.path(kept))).as("job %d", kept).isTrue();
        }
        assertThat(gc.run(true, b -> { }).deleted()).isEmpty();
    }

    @Test
    void aJobRegisteredDuringTheRunKeepsItsBlob() throws Exception {
        LocalJobInfoStore store = LocalJobInfoStore.open(dir, null, true, true);
        IMap<Long, Object> map = cluster.master().getMap("gc-race-" + System.nanoTime());
        writeBlob(store, 7);
        Instant now = Instant.now().plus(Duration.ofHours(2));
        GarbageCollector gc = new GarbageCollector(map, store, Duration.ofHours(1), Clock.fixed(now, ZoneOffset.UTC));
        // the job gets registered after the listing, before the delete
        GcReport report = gc.run(true, blob -> map.put(7L, new InlineJobInfo(1, 1, new byte[1])));
        assertThat(report.deleted()).isEmpty();
        assertThat(report.savedByRecheck()).isEqualTo(1);
        assertThat(Files.exists(store.path(7))).isTrue();
    }

    @Test
    void gcAndVerifyCallExactlyTheSameBlobsOrphans() throws Exception {
        LocalJobInfoStore store = LocalJobInfoStore.open(dir, null, true, true);
        String mapName = "gc-verify-" + System.nanoTime();
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        TestJobGenerator gen = new TestJobGenerator(3);
        try (RunningJobInfoRegistry<TestJob> registry = RunningJobInfoRegistry
                .builder(cluster.master(), store, CODEC).mapName(mapName).build()) {
            registry.submit(1, gen.generate(1, 5000));                 // referenced by a pointer
        }
        map.put(2L, new InlineJobInfo(1, CODEC.id(), CODEC.encode(gen.generate(2, 5000))));
        writeBlob(store, 2);                                            // id registered (inline value)
        byte[] payload = "job 8".getBytes();
        map.put(8L, new JobInfoPointer(8, 1, "elsewhere", BlobEnvelope.headerFor(8, 1, payload)));
        writeBlob(store, 8);                                            // id registered (pointer to another store)
        writeBlob(store, 3);                                            // orphan
        writeBlob(store, 4);                                            // unreferenced, young
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        for (long id : new long[] {1, 2, 3, 8}) {
            Files.setLastModifiedTime(store.path(id), FileTime.from(now.minus(Duration.ofHours(3))));
        }
        Files.setLastModifiedTime(store.path(4), FileTime.from(now.minus(Duration.ofMinutes(10))));
        Clock clock = Clock.fixed(now, ZoneOffset.UTC);

        GcReport gc = new GarbageCollector(map, store, Duration.ofHours(1), clock).run(false, b -> { });
        Verifier.Report verify = new Verifier(map, store, 2, clock, new OrphanRule(Duration.ofHours(1)))
                .run(id -> { });

        assertThat(gc.orphans()).extracting(StoredBlob::jobId).containsExactly(3L);
        assertThat(verify.orphans()).as("unreferenced blobs, young ones included").extracting(StoredBlob::jobId)
                .containsExactly(3L, 4L);
        assertThat(verify.orphans().stream().filter(verify::pastGrace)).extracting(StoredBlob::jobId)
                .as("what verify counts as orphans is exactly what gc would delete").containsExactly(3L);
    }

    private static void writeBlob(LocalJobInfoStore store, long jobId) throws Exception {
        store.create(jobId, BlobSource.ofBytes(BlobEnvelope.wrap(jobId, 1, ("job " + jobId).getBytes())));
    }
}
