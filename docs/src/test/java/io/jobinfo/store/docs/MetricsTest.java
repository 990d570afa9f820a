package io.jobinfo.store.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.metering.MeteredJobInfoStore;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.service.RestoreReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meters operations.md documents, read from a {@link SimpleMeterRegistry} after real operations: store calls on
 * real local and S3 stores opened with {@link JobInfoStores#open(JobInfoStorageConfig, MeterRegistry)}, and the
 * registry's submit, load, cache and restore meters on a real Hazelcast member.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MetricsTest {

    private static final String OPS = MeteredJobInfoStore.OPERATIONS;

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void everyStoreCallIsCountedTimedAndTaggedWithItsOutcome() throws Exception {
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("local").namespace(dir.toString())
                .storeId("metered").build();
        byte[] one = BlobEnvelope.wrap(1, KryoJobInfoCodec.ID, new byte[1000]);
        byte[] other = BlobEnvelope.wrap(1, KryoJobInfoCodec.ID, new byte[999]);
        byte[] two = BlobEnvelope.wrap(2, KryoJobInfoCodec.ID, new byte[3000]);
        try (JobInfoStore store = MeteredJobInfoStore.open(config, meters)) {
            assertThat(store).isInstanceOf(MeteredJobInfoStore.class);
            assertThat(store.type()).isEqualTo("local");
            assertThat(store.create(1, BlobSource.ofBytes(one))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.create(1, BlobSource.ofBytes(one))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
            assertThatThrownBy(() -> store.create(1, BlobSource.ofBytes(other)))
                    .isInstanceOf(BlobAlreadyExistsException.class);
            store.create(2, BlobSource.ofBytes(two));
            assertThat(store.read(1).payload()).hasSize(1000);
            assertThat(store.read(2).payload()).hasSize(3000);
            assertThatThrownBy(() -> store.read(3)).isInstanceOf(BlobNotFoundException.class);
            Path blob2 = dir.resolve("0000000000000002.jobinfo");
            byte[] damaged = Files.readAllBytes(blob2);
            damaged[damaged.length - 1] ^= 1;
            blob2.toFile().setWritable(true);
            Files.write(blob2, damaged);
            assertThatThrownBy(() -> store.read(2)).isInstanceOf(CorruptBlobException.class);
            assertThat(store.list()).hasSize(2);
            assertThat(store.delete(1)).isTrue();
            assertThat(store.delete(1)).isFalse();
        }

        assertThat(count("create", "success")).isEqualTo(2);
        assertThat(count("create", "already-present")).isEqualTo(1);
        assertThat(count("create", "conflict")).isEqualTo(1);
        assertThat(count("read", "success")).isEqualTo(2);
        assertThat(count("read", "not-found")).isEqualTo(1);
        assertThat(count("read", "corrupt")).isEqualTo(1);
        assertThat(count("list", "success")).isEqualTo(1);
        assertThat(count("delete", "success")).isEqualTo(1);
        assertThat(count("delete", "absent")).isEqualTo(1);
        Timer create = meters.get(OPS).tags("backend", "local", "store", "metered", "operation", "create",
                "outcome", "success").timer();
        assertThat(create.totalTime(TimeUnit.NANOSECONDS)).isPositive();

        DistributionSummary written = bytes("local", "create");
        assertThat(written.count()).isEqualTo(2);
        assertThat(written.totalAmount()).isEqualTo(one.length + two.length);
        assertThat(written.getId().getBaseUnit()).isEqualTo("bytes");
        assertThat(bytes("local", "read").totalAmount()).isEqualTo(1000 + 3000);
    }

    @Test
    void s3CallsAreTaggedWithTheirBackend() throws Exception {
        S3Fixture s3 = S3Fixture.shared();
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("s3").namespace("metrics")
                .option("s3.bucket", s3.createBucket("metrics"))
                .option("s3.endpoint", s3.endpoint().toString())
                .option("s3.region", s3.region())
                .option("s3.path-style-access", String.valueOf(s3.pathStyleAccess()))
                .option("s3.access-key", s3.accessKey())
                .option("s3.secret-key", s3.secretKey())
                .build();
        byte[] blob = BlobEnvelope.wrap(7, KryoJobInfoCodec.ID, new byte[2048]);
        try (JobInfoStore store = MeteredJobInfoStore.open(config, meters)) {
            store.create(7, BlobSource.ofBytes(blob));
            store.read(7);
            assertThatThrownBy(() -> store.read(8)).isInstanceOf(BlobNotFoundException.class);
        }
        assertThat(meters.get(OPS).tags("backend", "s3", "operation", "create", "outcome", "success").timer()
                .count()).isEqualTo(1);
        assertThat(meters.get(OPS).tags("backend", "s3", "operation", "read", "outcome", "not-found").timer()
                .count()).isEqualTo(1);
        assertThat(bytes("s3", "read").totalAmount()).isEqualTo(2048);
    }

    @Test
    void theRegistryRecordsSubmitsLoadsCacheAndRestores() throws Exception {
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("local").namespace(dir.toString())
                .storeId("registry").build();
        JobGenerator generator = new JobGenerator(7);
        KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();
        int jobSize = 50_000;
        // room for about two jobs: the third insert evicts
        CacheConfig cache = CacheConfig.of(2 * (jobSize + 20_000), jobSize + 20_000, CacheConfig
                .DEFAULT_EXPIRE_AFTER_ACCESS);
        try (HazelcastTestCluster cluster = new HazelcastTestCluster(1);
             JobInfoStore store = MeteredJobInfoStore.open(config, meters);
             RunningJobInfoRegistry<JobImmutableInformation> registry = RunningJobInfoRegistry
                     .builder(cluster.master(), store, codec).cache(cache).meterRegistry(meters)
                     .restorePrefetch(0) // the store counts below are exact; a prefetch may read a blob twice
                     .build()) {
            for (long id = 1; id <= 3; id++) {
                registry.submit(id, generator.generate(id, jobSize));
            }
            Thread.sleep(500);                       // let the map's entry-added events pass (they invalidate)
            registry.get(3);
            registry.invalidateAll();
            registry.get(1);                         // a miss and a load from the store
            registry.get(1);                         // a hit

            RestoreReport clean = registry.restoreAll((id, ts, job) -> { });
            assertThat(clean.failed()).isEmpty();
            Path blob2 = dir.resolve("0000000000000002.jobinfo");
            byte[] damaged = Files.readAllBytes(blob2);
            damaged[damaged.length - 1] ^= 1;
            blob2.toFile().setWritable(true);
            Files.write(blob2, damaged);
            registry.invalidateAll();
            RestoreReport broken = registry.restoreAll((id, ts, job) -> { });
            assertThat(broken.failed()).containsOnlyKeys(2L);
            registry.remove(3);

            String map = RunningJobInfoRegistry.DEFAULT_MAP_NAME;
            assertThat(meters.get("jobinfo.submit").tag("map", map).timer().count()).isEqualTo(3);
            // the miss, then the second restore's three loads
            assertThat(meters.get("jobinfo.load").tag("map", map).timer().count()).isGreaterThanOrEqualTo(1 + 3);
            assertThat(meters.get("jobinfo.restore").tag("map", map).timer().count()).isEqualTo(2);
            assertThat(meters.get("jobinfo.restore.failures").tag("map", map).counter().count()).isEqualTo(1);
            assertThat(meters.get("jobinfo.remove.blob.delete.failures").tag("map", map).counter().count()).isZero();
            double prefetchReads = meters.get("jobinfo.restore.prefetch.reads").tag("map", map).counter().count();
            assertThat(meters.get("jobinfo.restore.prefetch.used").tag("map", map).counter().count())
                    .isBetween(0.0, prefetchReads);
            double weight = meters.get("jobinfo.cache.weight.bytes").tag("map", map).gauge().value();
            assertThat(weight).isPositive().isLessThanOrEqualTo(cache.maxBytes());

            assertThat(cacheCounter("cache.gets", "result", "hit")).isGreaterThanOrEqualTo(1);
            assertThat(cacheCounter("cache.gets", "result", "miss")).isGreaterThanOrEqualTo(1);
            assertThat(meters.get("cache.evictions").tags("cache", "jobinfo", "map", map).functionCounter().count())
                    .isPositive();
            assertThat(meters.get("cache.eviction.weight").tags("cache", "jobinfo", "map", map).functionCounter()
                    .count()).isPositive();
            assertThat(meters.get("cache.size").tags("cache", "jobinfo", "map", map).gauge().value())
                    .isLessThanOrEqualTo(2);

            // and the store underneath: 3 creates of jobs and the namespace claim the registry wrote when it was built,
            // the restores' reads (one corrupt), one delete
            assertThat(count("registry", "create", "success")).isEqualTo(4);
            assertThat(count("registry", "read", "corrupt")).isEqualTo(1);
            assertThat(count("registry", "delete", "success")).isEqualTo(1);
        }
    }

    private long count(String operation, String outcome) {
        return count("metered", operation, outcome);
    }

    private long count(String storeId, String operation, String outcome) {
        Timer t = meters.find(OPS).tags("store", storeId, "operation", operation, "outcome", outcome).timer();
        return t == null ? 0 : t.count();
    }

    private DistributionSummary bytes(String backend, String operation) {
        return meters.get(MeteredJobInfoStore.BYTES).tags("backend", backend, "operation", operation).summary();
    }

    private double cacheCounter(String name, String tag, String value) {
        FunctionCounter c = meters.get(name).tags(Map.of("cache", "jobinfo", tag, value)
                .entrySet().stream().flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue()))
                .toArray(String[]::new)).functionCounter();
        return c.count();
    }
}
