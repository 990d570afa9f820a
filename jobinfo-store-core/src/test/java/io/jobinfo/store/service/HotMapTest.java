package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.InlineJobInfo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The hit path's open-addressing map against a HashMap model, and lock-free readers during rebuilds. */
class HotMapTest {

    private static CachedJob<String> job(long jobId, int version) {
        return new CachedJob<>(ContentKey.of(jobId, new InlineJobInfo(1, 1, new byte[] {(byte) version})), 1,
                "job " + jobId + " v" + version, 10);
    }

    @Test
    void behavesLikeAMapThroughGrowthTombstonesAndShrinking() {
        HotMap<String> map = new HotMap<>();
        Map<Long, CachedJob<String>> model = new HashMap<>();
        SplittableRandom random = new SplittableRandom(3);
        for (int step = 0; step < 200_000; step++) {
            // ids spread like real ones and clustered (colliding low bits), a key range that grows then shrinks
            int range = step < 100_000 ? 1 + step / 50 : 1 + (200_000 - step) / 50;
            long id = random.nextBoolean() ? random.nextInt(range) * 1024L : 880_000_000_000_000L
                    + random.nextInt(range) * 7919L;
            int op = random.nextInt(10);
            if (op < 5) {
                CachedJob<String> j = job(id, random.nextInt(5));
                map.put(j);
                model.put(id, j);
            } else if (op < 7) {
                CachedJob<String> current = model.get(id);
                // removing another instance must leave the entry
                map.remove(id, current == null || random.nextBoolean() ? job(id, 9) : current);
                if (current != null && map.get(id) == null) {
                    model.remove(id);
                }
            } else if (op < 8) {
                map.remove(id);
                model.remove(id);
            } else {
                assertThat(map.get(id)).as("step %d, id %d", step, id).isSameAs(model.get(id));
            }
            if (step % 10_000 == 0) {
                assertThat(map.size()).isEqualTo(model.size());
                model.forEach((k, v) -> assertThat(map.get(k)).isSameAs(v));
            }
        }
        assertThat(map.size()).isEqualTo(model.size());
        model.forEach((k, v) -> assertThat(map.get(k)).isSameAs(v));
    }

    @Test
    void aReaderAlwaysFindsAnEntryThatStaysWhileOthersComeAndGo() throws Exception {
        HotMap<String> map = new HotMap<>();
        CachedJob<String> stays = job(42, 1);
        map.put(stays);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong misses = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        Thread reader = new Thread(() -> {
            while (!stop.get()) {
                if (map.get(42) != stays) {
                    misses.incrementAndGet();
                }
                reads.incrementAndGet();
            }
        });
        reader.start();
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 300_000; i++) {
            long id = 100 + random.nextInt(5000);
            if (random.nextBoolean()) {
                map.put(job(id, 0));
            } else {
                map.remove(id);
            }
        }
        stop.set(true);
        reader.join();
        assertThat(reads.get()).isPositive();
        assertThat(misses.get()).as("reads that missed an entry present throughout").isZero();
    }
}
