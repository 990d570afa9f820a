package io.jobinfo.store.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.BuildInfoProvider;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import com.hazelcast.map.LocalMapStats;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.testing.RealSeaTunnelJob;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobs;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, item 7: what one job costs in SeaTunnel's real {@code engine_runningJobInfo} on a Hazelcast 5.1 cluster
 * (two members, the map's default one backup), measured with REAL SeaTunnel values: {@code JobInfo} holding a
 * {@code JobImmutableInformation} built and serialized by SeaTunnel's own classes from FakeSource job configurations
 * of about 10 KB, 200 KB and 1.8 MB. Beside it, on the same cluster, the pointer ({@link JobInfoPointer}) that
 * replaces each of those values. The cost is {@code LocalMapStats} owned + backup entry memory cost summed over the
 * members, divided by the jobs. Writes {@code target/seatunnel-jobinfo-cost.json}, which the benchmark report quotes.
 *
 * <p>Asserts only what holds for every run (the JobInfo costs at least the job's bytes on each copy, the pointer
 * costs the same for every size and far less); the figures themselves are reported, not asserted.
 */
class SeaTunnelRunningJobInfoCostTest {

    private static final int JOBS_PER_SIZE = 3;
    private static final int PORT = 5795;

    @Test
    void measuresTheCostPerJobOfRealJobInfosAndOfTheirPointers() throws Exception {
        String version = BuildInfoProvider.getBuildInfo().getVersion();
        assertThat(version).startsWith("5.1");
        String cluster = "st-cost-" + UUID.randomUUID();
        List<HazelcastInstance> members = new ArrayList<>();
        try {
            members.add(Hazelcast.newHazelcastInstance(config(cluster, PORT)));
            members.add(Hazelcast.newHazelcastInstance(config(cluster, PORT + 1)));
            HazelcastInstance hz = members.get(0);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!(hz.getCluster().getMembers().size() == 2 && hz.getPartitionService().isClusterSafe())) {
                assertThat(System.nanoTime()).as("two members and every backup in place").isLessThan(deadline);
                Thread.sleep(100);
            }
            // FakeSource tables x columns: about 10 KB, 200 KB and 1.8 MB (see ../shared facts: 250 B/table, 78 B/column)
            int[][] shapes = {{1, 2}, {100, 22}, {1000, 20}};
            List<Map<String, Object>> rows = new ArrayList<>();
            long pointerCostFirst = -1;
            for (int s = 0; s < shapes.length; s++) {
                IMap<Long, Object> jobInfos = hz.getMap("engine_runningJobInfo_" + s);
                IMap<Long, Object> pointers = hz.getMap("engine_runningJobInfo_pointer_" + s);
                long jobBytes = 0;
                for (int i = 0; i < JOBS_PER_SIZE; i++) {
                    long jobId = 9_000_000L + s * 100 + i;
                    RealSeaTunnelJob job = SeaTunnelJobs.build(jobId, shapes[s][0], shapes[s][1], false);
                    byte[] bytes = job.bytes();
                    jobBytes = bytes.length;
                    long ts = System.currentTimeMillis();
                    jobInfos.put(jobId, new JobInfo(ts, new HeapData(bytes)));
                    pointers.put(jobId, new JobInfoPointer(jobId, ts, "cost",
                            BlobEnvelope.headerFor(jobId, SeaTunnelJobDataCodec.ID, bytes)));
                }
                long jobInfoCost = cost(members, jobInfos.getName()) / JOBS_PER_SIZE;
                long pointerCost = cost(members, pointers.getName()) / JOBS_PER_SIZE;
                assertThat(jobInfoCost).as("JobInfo cost per job, two copies").isGreaterThan(2 * jobBytes);
                assertThat(pointerCost).as("pointer cost per job").isLessThan(jobInfoCost / 10);
                if (pointerCostFirst < 0) {
                    pointerCostFirst = pointerCost;
                }
                assertThat(pointerCost).as("the pointer's cost does not depend on the job's size")
                        .isEqualTo(pointerCostFirst);
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("tables", shapes[s][0]);
                row.put("columns", shapes[s][1]);
                row.put("jobImmutableInformationBytes", jobBytes);
                row.put("jobInfoBytesPerJob", jobInfoCost);
                row.put("pointerBytesPerJob", pointerCost);
                row.put("ratio", Math.round((double) jobInfoCost / pointerCost));
                rows.add(row);
            }
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("measuredAt", Instant.now().toString());
            report.put("source", "compat-hazelcast51 SeaTunnelRunningJobInfoCostTest");
            report.put("hazelcastVersion", version);
            report.put("seatunnelEngineCore", "2.3.8");
            report.put("members", members.size());
            report.put("backupCount", 1);
            report.put("jobsPerSize", JOBS_PER_SIZE);
            report.put("metric", "LocalMapStats owned + backup entry memory cost, summed over the members, per job");
            report.put("rows", rows);
            Path out = Paths.get(System.getProperty("compat.report.dir", "target"), "seatunnel-jobinfo-cost.json");
            Files.createDirectories(out.getParent());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), report);
        } finally {
            members.forEach(HazelcastInstance::shutdown);
        }
    }

    private static long cost(List<HazelcastInstance> members, String map) {
        long sum = 0;
        for (HazelcastInstance m : members) {
            LocalMapStats stats = m.getMap(map).getLocalMapStats();
            sum += stats.getOwnedEntryMemoryCost() + stats.getBackupEntryMemoryCost();
        }
        return sum;
    }

    private static Config config(String cluster, int port) {
        Config config = new Config();
        config.setClusterName(cluster);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.partition.count", "71");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.getJetConfig().setEnabled(false);
        config.getNetworkConfig().setPort(port).setPortAutoIncrement(false);
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:" + PORT).addMember("127.0.0.1:" + (PORT + 1));
        return JobInfoSerialization.configure(config);
    }
}
