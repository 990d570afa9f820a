package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.JobInfoSerialization;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.lifecycle.OrphanRule;
import io.jobinfo.store.ops.Verifier;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Java-serialized object placed in the job map as a value is never instantiated, on a member or a client, through
 * a plain get, the registry's get and restore, or verify; each of them names the job id. The members are those of the
 * api's test-jar ({@link HazelcastTestCluster}), the client is configured as the CLI's is, both with
 * {@link JavaDeserializationFilter}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JavaDeserializationTripwireTest {

    private static final KryoJobInfoCodec<TestJob> CODEC = TestJob.codec();
    private static final long HOSTILE = 666;
    private static final long GOOD = 7;

    @TempDir
    Path dir;

    private HazelcastTestCluster cluster;
    private HazelcastInstance client;
    private LocalJobInfoStore store;

    @BeforeEach
    void resetTripwire() {
        Tripwire.DESERIALIZED.set(0);
    }

    /** Two members and a client (only the test of the map value needs them). */
    private void start() throws Exception {
        cluster = new HazelcastTestCluster(2);
        ClientConfig cc = new ClientConfig();
        cc.setClusterName(cluster.clusterName());
        for (HazelcastInstance m : cluster.members()) {
            com.hazelcast.cluster.Address a = m.getCluster().getLocalMember().getAddress();
            cc.getNetworkConfig().addAddress(a.getHost() + ":" + a.getPort());
        }
        cc.setProperty("hazelcast.logging.type", "slf4j");
        client = HazelcastClient.newHazelcastClient(JobInfoSerialization.configure(
                JavaDeserializationFilter.restrict(cc)));
        store = LocalJobInfoStore.open(dir.resolve("store"), null, true, true);
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.shutdown();
        }
        if (store != null) {
            store.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theTripwireItselfFiresWhenJavaDeserializationIsNotRestricted() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new Tripwire());
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isInstanceOf(Tripwire.class);
        }
        assertThat(Tripwire.DESERIALIZED.get()).as("the test can detect an instantiation").isEqualTo(1);
    }

    @Test
    void aJavaSerializedMapValueIsNeverInstantiatedAndEveryReaderNamesTheJob() throws Exception {
        start();
        HazelcastInstance member = cluster.master();
        try (RunningJobInfoRegistry<TestJob> registry =
                     RunningJobInfoRegistry.builder(member, store, CODEC).build()) {
            registry.submit(GOOD, new TestJobGenerator(1).generate(GOOD, 10_000));
            // the hostile value goes in as raw Data (Java serialization, type id of Hazelcast's Java serializer):
            // writing it deserializes nothing
            Data hostile = ((SerializationServiceSupport) member).getSerializationService().toData(new Tripwire());
            IMap<Long, Object> map = registry.map();
            map.set(HOSTILE, hostile);

            // a plain get, on a member and on a client
            for (HazelcastInstance reader : List.of(member, cluster.nonMaster(), client)) {
                IMap<Long, Object> readerMap = reader.getMap(map.getName());
                assertThatThrownBy(() -> readerMap.get(HOSTILE))
                        .isInstanceOf(HazelcastSerializationException.class)
                        .hasStackTraceContaining("Resolving class " + Tripwire.class.getName() + " is not allowed");
            }

            // the registry's get
            assertThatThrownBy(() -> registry.get(HOSTILE))
                    .isInstanceOf(JobInfoStoreException.class)
                    .hasMessageContaining("jobId=" + HOSTILE)
                    .hasMessageContaining("cannot be deserialized");
            assertThat(registry.get(GOOD)).isPresent();

            // restore: the hostile entry fails alone, the good job is restored
            RestoreReport report = registry.restoreAll((id, ts, job) -> { });
            assertThat(report.restored()).containsExactly(GOOD);
            assertThat(report.failed()).containsOnlyKeys(HOSTILE);
            assertThat(report.failed().get(HOSTILE)).hasMessageContaining("jobId=" + HOSTILE);

            // verify, from a client
            Verifier.Report verified = new Verifier(client.getMap(map.getName()), store, 2, Clock.systemUTC(),
                    new OrphanRule(Duration.ZERO), io.jobinfo.store.lifecycle.JobValueFormats.inlineOnly(), List.of(CODEC)).run(id -> { });
            assertThat(verified.validPointers()).isEqualTo(1);
            assertThat(verified.broken()).singleElement().satisfies(p -> {
                assertThat(p.jobId()).isEqualTo(HOSTILE);
                assertThat(p.reason()).contains("cannot be read");
            });
        }
        assertThat(Tripwire.DESERIALIZED.get()).as("Java deserialization instantiated the tripwire").isZero();
    }

    @Test
    void theTestClustersMemberConfigurationCarriesTheFilter() {
        assertThat(HazelcastTestCluster.memberConfig("c").getSerializationConfig()
                .getJavaSerializationFilterConfig()).isEqualTo(JavaDeserializationFilter.filterConfig());
    }
}
