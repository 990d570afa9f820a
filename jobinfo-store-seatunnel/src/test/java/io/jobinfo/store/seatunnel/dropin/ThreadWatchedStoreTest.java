package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.logging.Logger;
import com.hazelcast.map.EntryProcessor;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watch really tells a partition thread from any other: a store call made inside an entry processor (which
 * Hazelcast runs on the key's partition thread) of a real one-member Hazelcast {@code ${hazelcast.engine.version}}
 * cluster is counted as one, a call from the test's own thread is not. Without this, "0 calls on partition threads"
 * on the real SeaTunnel cluster would prove nothing.
 */
class ThreadWatchedStoreTest {

    static volatile ThreadWatchedStore store;

    @Test
    void aCallOnAPartitionThreadIsCountedAndOneFromAnotherThreadIsNot(@TempDir Path dir) throws Exception {
        Config config = new Config();
        config.setClusterName("thread-watch-" + System.nanoTime());
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(false);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(config);
        DropInMetrics metrics = new DropInMetrics();
        try (JobInfoStore local = JobInfoStores.open(Map.of("type", "local", "namespace", dir.toString()))) {
            store = new ThreadWatchedStore(local, metrics, Logger.getLogger(ThreadWatchedStoreTest.class));
            store.list();
            assertThat(metrics.snapshot()).containsEntry("storeCalls", 1L)
                    .containsEntry("storeCallsOnPartitionThreads", 0L);

            hz.<Long, String>getMap("m").executeOnKey(1L, new ListInProcessor());

            assertThat(metrics.snapshot()).containsEntry("storeCalls", 2L)
                    .containsEntry("storeCallsOnPartitionThreads", 1L);
            assertThat(metrics.storeThreadKinds()).anyMatch(k -> k.contains(".partition-operation.thread-#"));
        } finally {
            hz.shutdown();
        }
    }

    @Test
    void everyCallReachesTheWrappedStoreAsMadeTheInterfaceDefaultsToo(@TempDir Path dir) throws Exception {
        DropInMetrics metrics = new DropInMetrics();
        try (JobInfoStore local = JobInfoStores.open(Map.of("type", "local", "namespace", dir.toString()))) {
            // the wrapped store's own answers, told apart from the interface defaults (8 loaders, read(id) = FULL)
            List<ReadVerification> levels = new ArrayList<>();
            JobInfoStore distinct = new ForwardingJobInfoStore(local) {
                @Override
                public int suggestedReadParallelism() {
                    return 17;
                }

                @Override
                public VerifiedBlob read(long jobId, ReadVerification level) throws JobInfoStoreException {
                    levels.add(level);
                    return super.read(jobId, level);
                }
            };
            ThreadWatchedStore watched = new ThreadWatchedStore(distinct, metrics,
                    Logger.getLogger(ThreadWatchedStoreTest.class));
            byte[] payload = "the job of id 5".getBytes(StandardCharsets.UTF_8);
            watched.create(5, BlobSource.ofBytes(BlobEnvelope.wrap(5, 1, payload)));

            assertThat(watched.read(5, ReadVerification.CRC32C).payload()).isEqualTo(payload);
            assertThat(levels).containsExactly(ReadVerification.CRC32C);
            assertThat(watched.suggestedReadParallelism()).isEqualTo(17);
            assertThat(metrics.snapshot()).containsEntry("storeCalls", 2L);
        }
    }

    /** Calls the store from wherever Hazelcast runs it: the key's partition thread. */
    static final class ListInProcessor implements EntryProcessor<Long, String, Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public Object process(Map.Entry<Long, String> entry) {
            try {
                store.list();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return null;
        }
    }
}
