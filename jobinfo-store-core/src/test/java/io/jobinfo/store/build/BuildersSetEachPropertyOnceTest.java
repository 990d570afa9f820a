package io.jobinfo.store.build;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.PartitionService;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.lifecycle.DeleteClaims;
import io.jobinfo.store.lifecycle.JobValueFormats;
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
 * The registry's, the migrator's and the pointer rebuilder's builders take each property once: a second set of the
 * same property fails with {@link IllegalStateException} naming it. Nothing is built, so the collaborators are inert
 * stand-ins (no Hazelcast instance is started).
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
        registry("mapName", b -> b.mapName("m"));
        registry("cache", b -> b.cache(CacheConfig.defaults()));
        registry("restoreParallelism", b -> b.restoreParallelism(4));
        registry("readVerification", b -> b.readVerification(ReadVerification.CRC32C));
        registry("restorePrefetch", b -> b.restorePrefetch(0));
        registry("meterRegistry", b -> b.meterRegistry(new SimpleMeterRegistry()));
        registry("fencing", b -> b.fencing(true));
        registry("claimWait", b -> b.claimWait(Duration.ZERO));
        registry("watchPartitionLoss", b -> b.watchPartitionLoss(false));
        registry("clusterName", b -> b.clusterName("c"));
        registry("submitPhaseListener", b -> b.submitPhaseListener(SubmitPhaseListener.NONE));
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
        migrator("parallelism", b -> b.parallelism(4));
        migrator("maxAttempts", b -> b.maxAttempts(2));
        migrator("copies", b -> b.copies(1));
        migrator("listener", b -> b.listener(new Migrator.Listener() { }));
        migrator("formats", b -> b.formats(JobValueFormats.inlineOnly()));
        migrator("claims", b -> b.claims(inert(DeleteClaims.class)));
    }

    @Test
    void thePointerRebuilderBuilderTakesEachPropertyOnce() {
        rebuilder("onlyPartitions", b -> b.onlyPartitions(Collections.singleton(1), inert(PartitionService.class)));
        rebuilder("timestampFromModificationTime", b -> b.timestampFromModificationTime(true));
    }

    private void registry(String property, Consumer<RunningJobInfoRegistry.Builder<Object>> set) {
        RunningJobInfoRegistry.Builder<Object> b = RunningJobInfoRegistry.builder(hazelcast, store, codec);
        secondSetFails(property, () -> set.accept(b));
    }

    private void migrator(String property, Consumer<Migrator.Builder> set) {
        Migrator.Builder b = Migrator.builder(map, store);
        secondSetFails(property, () -> set.accept(b));
    }

    private void rebuilder(String property, Consumer<PointerRebuilder.Builder> set) {
        PointerRebuilder.Builder b = PointerRebuilder.builder(map, store, Instant.EPOCH);
        secondSetFails(property, () -> set.accept(b));
    }

    private static void secondSetFails(String property, ThrowingCallable set) {
        assertThatCode(set).as("first set of %s", property).doesNotThrowAnyException();
        assertThatThrownBy(set).as("second set of %s", property).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(property);
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
