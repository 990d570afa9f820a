package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.it.cluster.DropInJmxProbe;
import io.jobinfo.store.seatunnel.harness.partition.PartitionHoldInterceptor;
import io.jobinfo.store.seatunnel.harness.partition.PartitionHoldMeasurement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What every backend's drop-in test asserts about partition threads (behaviour only; the times are reported). */
final class PartitionHoldAssertions {

    private PartitionHoldAssertions() {}

    /**
     * Every measured operation ran on a partition thread (the instrument measured what it claims), and each job was
     * put inline and replaced by its reference at least {@code rounds} times.
     */
    static void assertMeasuredOnPartitionThreads(PartitionHoldMeasurement.Result result, int rounds) {
        for (Map.Entry<String, List<PartitionHoldInterceptor.Sample>> e : result.samples().entrySet()) {
            List<PartitionHoldInterceptor.Sample> samples = e.getValue();
            assertThat(samples).as("samples of %s", e.getKey()).allSatisfy(s -> assertThat(s.thread())
                    .as("thread of a %s", s.op()).contains(".partition-operation.thread-"));
            assertThat(samples.stream().filter(s -> s.op().equals("put") && s.kind().equals("inline")).count())
                    .as("inline puts of %s", e.getKey()).isGreaterThanOrEqualTo(rounds);
            assertThat(samples.stream().filter(s -> s.op().equals("put") && s.kind().equals("reference")).count())
                    .as("replaces by the reference of %s", e.getKey()).isGreaterThanOrEqualTo(rounds);
        }
    }

    /**
     * Reads every member's drop-in MBean over JMX (as an operator's JMX client would, from inside the member's JVM):
     * one MBean per member, store calls were made, none of them on a partition thread, and the MBean's counters are
     * the drop-in's own. Returns, per member port, the store calls and the kinds of thread that made them.
     */
    static Map<Integer, Object> assertNoStoreCallOnAPartitionThread(ClusterClient client) {
        Map<Integer, java.util.HashMap<String, Long>> viaJmx = client.onEveryMember(new DropInJmxProbe());
        Map<Integer, Map<String, Long>> direct = client.dropInMetrics();
        Map<Integer, Object> out = new LinkedHashMap<>();
        long calls = 0;
        for (Map.Entry<Integer, java.util.HashMap<String, Long>> e : viaJmx.entrySet()) {
            Map<String, Long> m = e.getValue();
            assertThat(m.get("mbeans")).as("drop-in MBeans on member %d", e.getKey()).isEqualTo(1L);
            assertThat(m.get("storeCallsOnPartitionThreads")).as("store calls on partition threads, member %d: %s",
                    e.getKey(), m).isZero();
            List<String> kinds = new ArrayList<>();
            for (String k : m.keySet()) {
                if (k.startsWith("thread:")) {
                    kinds.add(k.substring("thread:".length()));
                }
            }
            assertThat(kinds).noneMatch(k -> k.contains("partition-operation"));
            assertThat(m.get("moved")).as("moved via JMX vs the drop-in's own counter, member %d", e.getKey())
                    .isLessThanOrEqualTo(direct.get(e.getKey()).get("moved"));
            calls += m.get("storeCalls");
            Map<String, Object> member = new LinkedHashMap<>();
            member.put("storeCalls", m.get("storeCalls"));
            member.put("storeCallsOnPartitionThreads", m.get("storeCallsOnPartitionThreads"));
            member.put("threadKinds", kinds);
            out.put(e.getKey(), member);
        }
        assertThat(calls).as("store calls on all members").isPositive();
        return out;
    }
}
