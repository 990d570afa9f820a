package io.jobinfo.store.build;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.PartitionService;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.lifecycle.BlobDeletion;
import io.jobinfo.store.lifecycle.DeleteClaims;
import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.lifecycle.ReferenceWrite;
import io.jobinfo.store.ops.Migrator;
import io.jobinfo.store.ops.PointerRebuilder;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.service.SubmitPhaseListener;
import io.jobinfo.store.spi.JobInfoStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The registry's, the migrator's, the pointer rebuilder's and the reference write's builders take each property once:
 * a second set of the same property fails with {@link IllegalStateException} naming it and the value it already has;
 * a value out of range fails with {@link IllegalArgumentException} naming the setting, what it may be and what it was
 * given. Nothing is built, so the collaborators are inert stand-ins (no Hazelcast instance is started).
 */
class BuildersSetEachPropertyOnceTest {

    private final HazelcastInstance hazelcast = inert(HazelcastInstance.class);
    private final JobInfoStore store = inert(JobInfoStore.class);
    @SuppressWarnings("unchecked")
    private final JobInfoCodec<Object> codec = inert(JobInfoCodec.class);
    @SuppressWarnings("unchecked")
    private final IMap<Long, Object> map = inert(IMap.class);

    @Test
    void theRegistryBuilderTakesEachPropertyOnce() {
        registry("mapName", "'m'", b -> b.mapName("m"));
        registry("cache", "a CacheConfig", b -> b.cache(CacheConfig.defaults()));
        registry("restoreParallelism", "4", b -> b.restoreParallelism(4));
        registry("readVerification", "CRC32C", b -> b.readVerification(ReadVerification.CRC32C));
        registry("restorePrefetch", "0", b -> b.restorePrefetch(0));
        registry("restoreOutageWait", "PT10M", b -> b.restoreOutageWait(Duration.ofMinutes(10)));
        registry("meterRegistry", "a SimpleMeterRegistry", b -> b.meterRegistry(new SimpleMeterRegistry()));
        registry("fencing", "true", b -> b.fencing(true));
        registry("claimWait", "PT0S", b -> b.claimWait(Duration.ZERO));
        registry("watchPartitionLoss", "false", b -> b.watchPartitionLoss(false));
        registry("clusterName", "'c'", b -> b.clusterName("c"));
        registry("submitPhaseListener", "a ", b -> b.submitPhaseListener(SubmitPhaseListener.NONE));
    }

    @Test
    void theRegistryBuilderRefusesValuesOutOfRangeNamingTheSettingAndWhatItMayBe() {
        RunningJobInfoRegistry.Builder<Object> b = RunningJobInfoRegistry.builder(hazelcast, store, codec);
        badValue(() -> b.restoreParallelism(0), "restoreParallelism must be 1..256, not 0");
        badValue(() -> b.restoreParallelism(257), "restoreParallelism must be 1..256, not 257");
        badValue(() -> b.restorePrefetch(-1), "restorePrefetch must be 0 (off) or more bytes, not -1");
        badValue(() -> b.restoreOutageWait(Duration.ofSeconds(-1)),
                "restoreOutageWait must be zero (report at once) or more, not PT-1S");
        badValue(() -> b.claimWait(Duration.ofMillis(-5)),
                "claimWait must be zero (fail at once) or more, not PT-0.005S");
        assertThatThrownBy(() -> b.claimWait(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("claimWait");
        assertThatThrownBy(() -> b.restoreOutageWait(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("restoreOutageWait");
    }

    @Test
    void theRegistryBuilderAddsAReadStoreEachTime() {
        RunningJobInfoRegistry.Builder<Object> b = RunningJobInfoRegistry.builder(hazelcast, store, codec);
        assertThatCode(() -> b.readAlsoFrom(store).readAlsoFrom(inert(JobInfoStore.class)))
                .doesNotThrowAnyException();
    }

    @Test
    void aRejectedValueDoesNotCountAsSet() {
        RunningJobInfoRegistry.Builder<Object> b = RunningJobInfoRegistry.builder(hazelcast, store, codec);
        assertThatThrownBy(() -> b.restoreParallelism(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatCode(() -> b.restoreParallelism(4)).doesNotThrowAnyException();
    }

    @Test
    void theMigratorBuilderTakesEachPropertyOnce() {
        migrator("parallelism", "4", b -> b.parallelism(4));
        migrator("maxAttempts", "2", b -> b.maxAttempts(2));
        migrator("copies", "1", b -> b.copies(1));
        migrator("listener", "a ", b -> b.listener(new Migrator.Listener() { }));
        migrator("formats", "a JobValueFormats", b -> b.formats(JobValueFormats.inlineOnly()));
        migrator("claims", "a ", b -> b.claims(inert(DeleteClaims.class)));
    }

    @Test
    void theMigratorBuilderRefusesValuesOutOfRangeNamingTheSettingAndWhatItMayBe() {
        Migrator.Builder b = Migrator.builder(map, store);
        badValue(() -> b.parallelism(0), "parallelism must be 1..64, not 0");
        badValue(() -> b.maxAttempts(101), "maxAttempts must be 1..100, not 101");
        badValue(() -> b.copies(8), "copies must be 1..7, not 8");
    }

    @Test
    void thePointerRebuilderBuilderTakesEachPropertyOnce() {
        rebuilder("onlyPartitions", "[1]",
                b -> b.onlyPartitions(Collections.singleton(1), inert(PartitionService.class)));
        rebuilder("timestampFromModificationTime", "true", b -> b.timestampFromModificationTime(true));
    }

    @Test
    void theReferenceWriteBuilderTakesEachPropertyOnce() {
        referenceWrite("replaceUnreferencedConflicts", "true", ReferenceWrite.Builder::replaceUnreferencedConflicts);
        referenceWrite("readBack", "FULL", b -> b.readBack(ReadVerification.FULL));
        referenceWrite("steps", "a ", b -> b.steps(inert(ReferenceWrite.Steps.class)));
        referenceWrite("deletionSteps", "a ", b -> b.deletionSteps(inert(BlobDeletion.Steps.class)));
        assertThatThrownBy(() -> ReferenceWrite.builder(store, inert(DeleteClaims.class)).readBack(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("readBack");
    }

    private void registry(String property, String shown, Consumer<RunningJobInfoRegistry.Builder<Object>> set) {
        RunningJobInfoRegistry.Builder<Object> b = RunningJobInfoRegistry.builder(hazelcast, store, codec);
        secondSetFails("RunningJobInfoRegistry.Builder", property, shown, () -> set.accept(b));
    }

    private void migrator(String property, String shown, Consumer<Migrator.Builder> set) {
        Migrator.Builder b = Migrator.builder(map, store);
        secondSetFails("Migrator.Builder", property, shown, () -> set.accept(b));
    }

    private void rebuilder(String property, String shown, Consumer<PointerRebuilder.Builder> set) {
        PointerRebuilder.Builder b = PointerRebuilder.builder(map, store, Instant.EPOCH);
        secondSetFails("PointerRebuilder.Builder", property, shown, () -> set.accept(b));
    }

    private void referenceWrite(String property, String shown, Consumer<ReferenceWrite.Builder> set) {
        ReferenceWrite.Builder b = ReferenceWrite.builder(store, inert(DeleteClaims.class));
        secondSetFails("ReferenceWrite.Builder", property, shown, () -> set.accept(b));
    }

    /** The second set fails with "{@code <builder>: <property> is already set to <shown>...}". */
    private static void secondSetFails(String builder, String property, String shown, ThrowingCallable set) {
        assertThatCode(set).as("first set of %s", property).doesNotThrowAnyException();
        assertThatThrownBy(set).as("second set of %s", property).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(builder + ": " + property + " is already set to " + shown)
                .hasMessageContaining("can be set once");
    }

    private static void badValue(ThrowingCallable set, String message) {
        assertThatThrownBy(set).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    /** A stand-in whose every method fails: the builders only keep it. */
    private static <T> T inert(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return method.getName().equals("equals") ? proxy == args[0]
                        : method.getName().equals("hashCode") ? System.identityHashCode(proxy) : type.getSimpleName();
            }
            throw new UnsupportedOperationException(method.getName());
        }));
    }
}
