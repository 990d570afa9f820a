package io.jobinfo.store.seatunnel.dropin;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.config.SerializerConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a passive drop-in asks every member before it lifts the join guard, on a real member in this JVM: history
 * references count as references (before, only running jobs' did: with finished jobs' history on the store and no
 * job running, a passive cluster let a member without the plugin in, whose REST answers for those jobs then failed),
 * inline history values do not, and a history map that does not exist is not created by the question.
 */
class ReferenceCountTest {

    private HazelcastInstance member;

    @BeforeEach
    void start() {
        Config config = new Config();
        config.setClusterName("reference-count-" + System.nanoTime());
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.getNetworkConfig().setPort(16411).setPortAutoIncrement(true);
        config.getSerializationConfig().addSerializerConfig(new SerializerConfig()
                .setTypeClass(HistoryReference.class).setImplementation(new HistoryReferenceSerializer()));
        member = Hazelcast.newHazelcastInstance(config);
    }

    @AfterEach
    void stop() {
        member.shutdown();
    }

    private long count() {
        ReferenceCount question = new ReferenceCount();
        question.setHazelcastInstance(member);
        return question.call();
    }

    @Test
    void historyReferencesCountAndInlineHistoryValuesDoNot() {
        assertThat(count()).as("no map at all").isZero();
        assertThat(member.getDistributedObjects()).as("the question creates no history map")
                .noneMatch(o -> HistoryMaps.ALL.contains(o.getName()));

        IMap<Long, Object> state = member.getMap(HistoryMaps.STATE);
        byte[] value = new byte[40];
        ByteBuffer.wrap(value).putInt(0).putInt(-11); // a Data of Hazelcast's String type: an inline history value
        state.set(1L, new HeapData(value));
        assertThat(count()).as("an inline history value").isZero();

        JobInfoPointer pointer = new JobInfoPointer(2, 1_900_000_000_000L, "history-state",
                BlobEnvelope.headerFor(2, HistoryMover.CODEC_ID, 1_900_000_000_000L, value));
        state.set(2L, new HistoryReference(pointer, HistoryMaps.STATE));
        IMap<Long, Object> dag = member.getMap(HistoryMaps.DAG);
        dag.set(2L, new HistoryReference(pointer, HistoryMaps.DAG));
        assertThat(count()).as("two history references, in two maps").isEqualTo(2);
    }
}
