package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.partition.InternalPartition;
import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.ops.GarbageCollector;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.ops.PointerRebuilder;
import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.lifecycle.FencedException;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.service.RestoreReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partitions lost for real: a 4-member in-JVM cluster with one synchronous backup (the default), of which the owner
 * and the backup of the epoch counter's partition are terminated at the same moment, so that this partition and
 * every other one whose two replicas sat on those members lose all their entries (pointers, fences, the epoch
 * counter). Then: the loss is detected and recorded cluster-wide, GC holds (deletes nothing although the lost jobs'
 * blobs look like orphans), the lost pointers are rebuilt from the blobs (version 2 envelopes carry the
 * initialization timestamp), every job restores byte for byte, and the next fencing epoch is above every fence
 * although the epoch counter's entry was lost.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PartitionLossTest {

    private static final KryoJobInfoCodec<JobImmutableInformation> CODEC = JobImmutableInformationSerializer.codec();

    @TempDir
    Path dir;

    @Test
    void lostPartitionsAreDetectedGcHoldsPointersAreRebuiltAndFencingStaysAboveEveryFence() throws Exception {
        String mapName = "loss-" + UUID.randomUUID().toString().substring(0, 8);
        try (HazelcastTestCluster cluster = new HazelcastTestCluster(4)) {
            LocalJobInfoStore store = LocalJobInfoStore.open(dir, null, true, true);
            List<RunningJobInfoRegistry<JobImmutableInformation>> registries = new ArrayList<>();
            Map<RunningJobInfoRegistry<JobImmutableInformation>, UUID> memberOf = new HashMap<>();
            for (HazelcastInstance member : cluster.members()) {
                // a registry on every member, as every engine member has one: each watches for lost partitions
                RunningJobInfoRegistry<JobImmutableInformation> r = RunningJobInfoRegistry.builder(member, store,
                        CODEC).mapName(mapName).fencing(true).build();
                registries.add(r);
                memberOf.put(r, member.getCluster().getLocalMember().getUuid());
            }
            // three takeovers: the epoch counter and every fence stand at 3
            for (int i = 0; i < 3; i++) {
                registries.get(i).takeOver();
            }
            RunningJobInfoRegistry<JobImmutableInformation> master = registries.get(2);
            assertThat(master.epoch()).isEqualTo(3);

            // whom to kill: the owner and the backup of the epoch counter's partition
            HazelcastInstance survivor0 = cluster.members().get(0);
            int epochPartition = survivor0.getPartitionService().getPartition(0L).getPartitionId();
            InternalPartition partition = ((HazelcastInstanceProxy) survivor0).getOriginal().node
                    .getPartitionService().getPartition(epochPartition);
            Set<UUID> doomed = new HashSet<>();
            doomed.add(partition.getReplica(0).uuid());
            doomed.add(partition.getReplica(1).uuid());
            assertThat(doomed).hasSize(2);
            // which partitions will be lost: those whose owner and backup are both doomed
            Set<Integer> expectedLost = new TreeSet<>();
            for (int p = 0; p < survivor0.getPartitionService().getPartitions().size(); p++) {
                InternalPartition ip = ((HazelcastInstanceProxy) survivor0).getOriginal().node.getPartitionService()
                        .getPartition(p);
                if (doomed.contains(ip.getReplica(0).uuid()) && doomed.contains(ip.getReplica(1).uuid())) {
                    expectedLost.add(p);
                }
            }
            assertThat(expectedLost).contains(epochPartition);

            // jobs: 150 spread over every partition, and 5 more in the epoch counter's partition
            JobGenerator generator = new JobGenerator(11);
            Map<Long, JobImmutableInformation> jobs = new HashMap<>();
            Map<Long, Long> initializedAt = new HashMap<>();
            List<Long> ids = new ArrayList<>();
            for (long id = 1; id <= 150; id++) {
                ids.add(id);
            }
            for (long id = 1_000; ids.size() < 155; id++) {
                if (survivor0.getPartitionService().getPartition(id).getPartitionId() == epochPartition) {
                    ids.add(id);
                }
            }
            List<RunningJobInfoRegistry<JobImmutableInformation>> live = registries.stream()
                    .filter(r -> !doomed.contains(memberOf.get(r))).collect(Collectors.toList());
            assertThat(live).hasSize(2);
            RunningJobInfoRegistry<JobImmutableInformation> submitter = live.get(0);
            submitter.takeOver(); // epoch 4 on a surviving member; every fence is 4
            for (long id : ids) {
                JobImmutableInformation job = generator.generate(id, 4_000);
                jobs.put(id, job);
                initializedAt.put(id, 1_700_000_000_000L + id);
                submitter.submit(id, initializedAt.get(id), job);
            }
            Set<Long> expectedLostJobs = ids.stream().filter(id -> expectedLost.contains(
                    survivor0.getPartitionService().getPartition(id).getPartitionId())).collect(Collectors.toSet());
            assertThat(expectedLostJobs).isNotEmpty();
            Instant beforeLoss = Instant.now();

            // the loss: both doomed members terminated at the same moment (no graceful leave, no migration)
            List<HazelcastInstance> victims = cluster.members().stream().filter(m -> doomed.contains(
                    m.getCluster().getLocalMember().getUuid())).collect(Collectors.toList());
            CompletableFuture.allOf(victims.stream().map(m -> CompletableFuture.runAsync(
                    () -> m.getLifecycleService().terminate())).toArray(CompletableFuture[]::new)).get();
            HazelcastInstance survivor = cluster.members().stream().filter(m -> !doomed.contains(
                    m.getCluster().getLocalMember().getUuid())).findFirst().get();
            await().atMost(60, TimeUnit.SECONDS).until(() -> survivor.getCluster().getMembers().size() == 2
                    && survivor.getPartitionService().isClusterSafe());
            IMap<Long, Object> map = survivor.getMap(mapName);
            Set<Long> lostJobs = new TreeSet<>(ids);
            lostJobs.removeAll(map.keySet());
            assertThat(lostJobs).as("pointers of the lost partitions are gone").isEqualTo(expectedLostJobs);

            // detected and recorded cluster-wide (read here through a client, as the CLI does)
            IncidentLog log = new IncidentLog(survivor, mapName);
            await().atMost(60, TimeUnit.SECONDS).until(() -> lostPartitionsOf(log, mapName)
                    .containsAll(expectedLost));
            assertThat(lostPartitionsOf(log, mapName)).isEqualTo(expectedLost);
            assertThat(lostPartitionsOf(log, mapName + ".epoch")).contains(epochPartition);
            List<ClusterIncident> open = log.open(IncidentLog.DEFAULT_WINDOW, Instant.now());
            assertThat(open).isNotEmpty();

            // GC holds: the lost jobs' blobs look like orphans (a dry run lists them), but a deleting run deletes
            // nothing while the incidents are open
            Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(2)), ZoneOffset.UTC);
            GarbageCollector gc = new GarbageCollector(map, store, Duration.ofHours(1), later)
                    .holdOnIncidents(log, IncidentLog.DEFAULT_WINDOW);
            GcReport dryRun = gc.run(false, b -> { });
            assertThat(dryRun.orphans()).extracting(StoredBlob::jobId).containsExactlyInAnyOrderElementsOf(lostJobs);
            GcReport held = gc.run(true, b -> { });
            assertThat(held.held()).isTrue();
            assertThat(held.heldBy()).isNotEmpty();
            assertThat(held.deleted()).isEmpty();
            for (long id : lostJobs) {
                assertThat(store.read(id).payload()).as("blob of lost job %d kept", id).isNotEmpty();
            }

            // rebuild: the lost partitions' blobs older than the loss get their pointers back, from the blob alone
            Instant lossSeen = open.stream().map(ClusterIncident::detectedAt).min(Instant::compareTo).get();
            assertThat(lossSeen).isAfterOrEqualTo(beforeLoss);
            PointerRebuilder rebuilder = PointerRebuilder.builder(map, store, lossSeen)
                    .onlyPartitions(lostPartitionsOf(log, mapName), survivor.getPartitionService()).build();
            PointerRebuilder.Report preview = rebuilder.run(false);
            assertThat(preview.with(PointerRebuilder.Outcome.REBUILT)).extracting(PointerRebuilder.Entry::jobId)
                    .containsExactlyInAnyOrderElementsOf(lostJobs);
            assertThat(map.keySet()).doesNotContainAnyElementsOf(lostJobs); // a dry run puts nothing
            PointerRebuilder.Report rebuilt = rebuilder.run(true);
            assertThat(rebuilt.with(PointerRebuilder.Outcome.REBUILT)).extracting(PointerRebuilder.Entry::jobId)
                    .containsExactlyInAnyOrderElementsOf(lostJobs);
            assertThat(rebuilt.with(PointerRebuilder.Outcome.FAILED)).isEmpty();

            // every job restores byte for byte, with its own initialization timestamp
            RunningJobInfoRegistry<JobImmutableInformation> newMaster = live.get(1);
            Map<Long, JobImmutableInformation> restored = new ConcurrentHashMap<>();
            Map<Long, Long> restoredAt = new ConcurrentHashMap<>();
            newMaster.invalidateAll();
            RestoreReport report = newMaster.restoreAll((id, ts, job) -> {
                restored.put(id, job);
                restoredAt.put(id, ts);
            });
            assertThat(report.failed()).isEmpty();
            assertThat(restored).isEqualTo(jobs);
            assertThat(restoredAt).isEqualTo(initializedAt);

            // fencing: the counter's entry is gone, yet the next epoch is above every fence still standing
            assertThat(survivor.<Long, Long>getMap(mapName + ".epoch").get(0L)).as("epoch counter lost").isNull();
            long highestFence = survivor.<Long, Long>getMap(mapName + ".fence").values().stream()
                    .mapToLong(Long::longValue).max().orElse(0);
            assertThat(highestFence).isEqualTo(4);
            long next = newMaster.takeOver();
            assertThat(next).isGreaterThan(highestFence);
            assertThat(survivor.<Long, Long>getMap(mapName + ".fence").values()).allMatch(f -> f == next);
            // the deposed master (epoch 4, alive on the other survivor) is refused, on a lost partition (whose fence
            // was lost and raised again) and on a kept one
            long keptJob = ids.stream().filter(id -> !lostJobs.contains(id)).findFirst().get();
            long lostJob = lostJobs.iterator().next();
            assertThat(submitter.epoch()).isEqualTo(4);
            assertThatThrownBy(() -> submitter.remove(keptJob)).isInstanceOf(FencedException.class);
            assertThatThrownBy(() -> submitter.remove(lostJob)).isInstanceOf(FencedException.class);
            assertThat(map.get(keptJob)).isNotNull();
            assertThat(map.get(lostJob)).isNotNull();

            // the operator acknowledges: GC deletes again, and there is nothing to delete (every blob has a pointer)
            log.acknowledge(Instant.now(), "operator");
            GcReport after = new GarbageCollector(map, store, Duration.ofHours(1), later)
                    .holdOnIncidents(log, IncidentLog.DEFAULT_WINDOW).run(true, b -> { });
            assertThat(after.held()).isFalse();
            assertThat(after.orphans()).isEmpty();
            assertThat(after.deleted()).isEmpty();
            for (RunningJobInfoRegistry<JobImmutableInformation> r : live) {
                r.close();
            }
        }
    }

    private static Set<Integer> lostPartitionsOf(IncidentLog log, String mapName) {
        return log.all().stream().filter(c -> c.kind() == ClusterIncident.Kind.PARTITION_LOST
                && c.mapName().equals(mapName)).map(ClusterIncident::partitionId)
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
