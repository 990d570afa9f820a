package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.lifecycle.NamespaceClaimedException;
import io.jobinfo.store.ops.GarbageCollector;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 (partial views, second cluster) on the library's way in: the first registry on a store namespace claims it
 * for its cluster ({@link NamespaceClaim}); a registry of another cluster on the same namespace refuses to be built,
 * naming the cluster that holds it, before it could take that cluster's blobs for orphans. Before, it was built and its
 * GC deleted the other cluster's running jobs.
 */
class RegistryNamespaceClaimTest {

    @TempDir
    Path dir;

    @Test
    void aSecondClusterOnTheNamespaceIsRefusedAndTheFirstKeepsItsJobs() throws Exception {
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("local").namespace(dir.toString()).build();
        try (HazelcastTestCluster first = new HazelcastTestCluster(2);
             HazelcastTestCluster second = new HazelcastTestCluster(1);
             JobInfoStore firstStore = JobInfoStores.open(config);
             JobInfoStore secondStore = JobInfoStores.open(config)) {
            assertThat(first.clusterName()).isNotEqualTo(second.clusterName());
            RunningJobInfoRegistry<TestJob> registry = RunningJobInfoRegistry.builder(
                    first.master(), firstStore, TestJob.codec()).build();
            TestJob job = new TestJobGenerator(7).generate(41, 30_000);
            registry.submit(41, job);
            // another member of the same cluster: the claim is its own
            RunningJobInfoRegistry.builder(first.nonMaster(), firstStore, TestJob.codec())
                    .build().close();

            assertThatThrownBy(() -> RunningJobInfoRegistry.builder(second.master(), secondStore,
                    TestJob.codec()).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasCauseInstanceOf(NamespaceClaimedException.class)
                    .hasMessageContaining("belongs to the cluster '" + first.clusterName() + "'")
                    .hasMessageContaining("not to this cluster '" + second.clusterName() + "'");

            // what the refused cluster would have done: its map has no entry for job 41, so its GC calls the blob an
            // orphan; the claim keeps this from ever running. The first cluster's GC keeps its job and the claim.
            GcReport gc = new GarbageCollector(first.master().getMap(RunningJobInfoRegistry.DEFAULT_MAP_NAME),
                    firstStore, Duration.ofHours(1), Clock.offset(Clock.systemUTC(), Duration.ofHours(2)))
                    .run(true, b -> { });
            assertThat(gc.deleted()).isEmpty();
            assertThat(registry.get(41)).contains(job);
            assertThat(firstStore.read(NamespaceClaim.JOB_ID).payload()).asString()
                    .isEqualTo("cluster=" + first.clusterName());
            registry.close();
        }
    }
}
