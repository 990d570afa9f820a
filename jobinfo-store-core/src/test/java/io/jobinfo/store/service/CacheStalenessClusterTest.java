package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.InlineJobInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.MapService;
import com.hazelcast.spi.impl.AbstractDistributedObject;
import com.hazelcast.spi.impl.eventservice.EventRegistration;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache's staleness bound on a real 3-member cluster when invalidation events are lost. The loss is made real by
 * removing the reading member's entry-listener registration from the cluster's event service (what a lost event
 * looks like to the registry: it still believes it listens, but no event reaches it); the job is then removed and
 * replaced through the registry of another member.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CacheStalenessClusterTest {

    private static final KryoJobInfoCodec<TestJob> CODEC = TestJob.codec();
    private static final TestJobGenerator GENERATOR = new TestJobGenerator(77);
    /** Slack for the awaits on top of the stated bound: a loaded build machine, the cluster's own calls. */
    private static final Duration SLACK = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    /** One cluster for the class: each test has maps of its own, destroyed after it. */
    private static HazelcastTestCluster cluster;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        cluster.master().getDistributedObjects().forEach(DistributedObject::destroy);
    }

    private RunningJobInfoRegistry<TestJob> registry(HazelcastInstance member, String map,
                                                                    CacheConfig cache) throws Exception {
        JobInfoStore store = LocalJobInfoStore.open(dir.resolve("store"), null, true, true);
        RunningJobInfoRegistry<TestJob> r = RunningJobInfoRegistry.builder(member, store, CODEC)
                .mapName(map).cache(cache)
                // no partition-lost listener: loseEventsOf counts the map's listener registrations of the member
                .watchPartitionLoss(false).build();
        closeables.add(store::close);
        closeables.add(r);
        return r;
    }

    /** Deregisters every entry listener {@code member} holds on {@code map}: from now on its events are lost. */
    private static int loseEventsOf(HazelcastInstance member, String map) {
        IMap<Long, Object> proxy = member.getMap(map);
        Address self = member.getCluster().getLocalMember().getAddress();
        int removed = 0;
        for (EventRegistration reg : ((AbstractDistributedObject<?>) proxy).getNodeEngine().getEventService()
                .getRegistrations(MapService.SERVICE_NAME, map)) {
            if (self.equals(reg.getSubscriber()) && proxy.removeEntryListener(reg.getId())) {
                removed++;
            }
        }
        return removed;
    }

    private static CacheConfig withStaleness(Duration bound) {
        return CacheConfig.of(CacheConfig.DEFAULT_MAX_BYTES, CacheConfig.DEFAULT_MAX_ENTRY_BYTES,
                CacheConfig.DEFAULT_EXPIRE_AFTER_ACCESS, bound);
    }

    @Test
    void aRemovedOrReplacedJobStopsBeingServedWithinTheBoundWhenItsInvalidationIsLost() throws Exception {
        Duration bound = Duration.ofSeconds(5); // the default cache.max-staleness
        String map = "lost-events";
        RunningJobInfoRegistry<TestJob> writer = registry(cluster.master(), map,
                CacheConfig.defaults());
        TestJob removed = GENERATOR.generate(13, 20_000);
        TestJob before = GENERATOR.generate(12, 20_000);
        TestJob after = GENERATOR.generate(12, 30_000);
        writer.submit(13, removed);
        writer.submit(12, before);
        // The reader starts listening only now: the add events of these two submits went out before its listener
        // existed. Had it listened already, an add event delivered after its first reads (events are asynchronous;
        // fresh-clone CI at 4cdbd0c) would have invalidated what it had just cached, rightly, and the check below
        // would have found nothing stale to serve.
        RunningJobInfoRegistry<TestJob> reader = registry(cluster.nonMaster(), map,
                CacheConfig.defaults());
        // the cache's own clock (CoarseTicker): an entry's age is counted on it, and a starved clock thread can lag
        // wall time by more than the bound's last second (fresh-clone CI under -T 2: the wall-clock guard passed,
        // yet the reader had already revalidated job 12, which the bound allows)
        CoarseTicker cacheClock = CoarseTicker.acquire(); // the reader's own (shared) clock; released below
        long loadedAtCacheClock = cacheClock.read();
        assertThat(reader.get(13)).contains(removed);
        assertThat(reader.get(12)).contains(before);
        assertThat(loseEventsOf(cluster.nonMaster(), map)).as("the reader's entry listener").isEqualTo(1);

        writer.remove(13);
        writer.remove(12);
        writer.submit(12, after);
        long changedAt = System.nanoTime();
        Optional<TestJob> twelve = reader.get(12);
        Optional<TestJob> thirteen = reader.get(13);
        boolean freshOnTheCacheClock = cacheClock.read() - loadedAtCacheClock < bound.toNanos();
        CoarseTicker.release(cacheClock);
        if (freshOnTheCacheClock) {
            // both entries were fresh on the cache's clock at both gets (confirmed after loadedAtCacheClock): shows
            // that the event really was lost, the old jobs are still served from the reader's cache
            assertThat(twelve).as("served from the cache, no event came").contains(before);
            assertThat(thirteen).as("served from the cache, no event came").contains(removed);
        }

        await().atMost(bound.plus(SLACK)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertThat(reader.get(13)).as("a removed job").isEmpty();
            assertThat(reader.get(12)).as("a replaced job").contains(after);
        });
        long servedStaleNanos = System.nanoTime() - changedAt;
        assertThat(Duration.ofNanos(servedStaleNanos)).as("stale for at most max-staleness + 100 ms (+ slack)")
                .isLessThanOrEqualTo(bound.plusMillis(100).plus(SLACK));
        // and now the fresh job is cached again: confirmed, served as a hit
        long hits = reader.cacheStats().hitCount();
        assertThat(reader.get(12)).contains(after);
        assertThat(reader.cacheStats().hitCount()).isEqualTo(hits + 1);
    }

    @Test
    void theDefaultBoundIsFiveSeconds() {
        assertThat(CacheConfig.defaults().maxStaleness()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aPointerPutStraightIntoTheMapOnAnotherMemberIsPickedUpWithinTheBound() throws Exception {
        Duration bound = Duration.ofSeconds(1);
        String map = "direct-put";
        RunningJobInfoRegistry<TestJob> writer = registry(cluster.master(), map,
                CacheConfig.defaults());
        RunningJobInfoRegistry<TestJob> reader = registry(cluster.nonMaster(), map,
                withStaleness(bound));
        TestJob first = GENERATOR.generate(40, 20_000);
        TestJob second = GENERATOR.generate(40, 25_000);
        writer.submit(40, first);
        assertThat(reader.get(40)).contains(first);
        loseEventsOf(cluster.nonMaster(), map);

        // another coordinator's view of the job: an inline value put over the pointer, straight into the map
        cluster.members().get(2).getMap(map).put(40L, new InlineJobInfo(5, CODEC.id(), CODEC.encode(second)));
        long changedAt = System.nanoTime();
        await().atMost(bound.plus(SLACK)).pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> assertThat(reader.get(40)).contains(second));
        assertThat(Duration.ofNanos(System.nanoTime() - changedAt)).isLessThanOrEqualTo(bound.plus(SLACK));
    }

    @Test
    void aStalenessOfZeroConfirmsEveryReadWithTheMap() throws Exception {
        String map = "zero-staleness";
        RunningJobInfoRegistry<TestJob> writer = registry(cluster.master(), map,
                CacheConfig.defaults());
        RunningJobInfoRegistry<TestJob> reader = registry(cluster.nonMaster(), map,
                withStaleness(Duration.ZERO));
        TestJob job = GENERATOR.generate(50, 20_000);
        writer.submit(50, job);
        assertThat(reader.get(50)).contains(job);
        loseEventsOf(cluster.nonMaster(), map);
        assertThat(reader.get(50)).as("the confirmed entry is served, the blob is not read again").contains(job);
        writer.remove(50);
        assertThat(reader.get(50)).as("the very next read after the removal").isEmpty();
    }
}
