package io.jobinfo.store.docs;

import io.jobinfo.store.metering.MeteredJobInfoStore;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.service.JobRestorer;
import io.jobinfo.store.service.RestoreReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java of the docs is real code. integration.md's ```java blocks (each a compilation unit) are compiled together
 * against the test class path with {@code -Xlint:all -Werror}, then driven on a real two-member Hazelcast cluster and a
 * real local store: submit, REST list / get / count, a master switch restore (skipping a job the new master runs and
 * dropping one without state), a job end. README's snippet (statements using {@code job}) is compiled inside a method.
 */
class JavaExamplesTest {

    private static final Pattern TYPE = Pattern.compile("(?m)^public\\s+(?:final\\s+)?(?:class|interface|record)\\s+(\\w+)");

    @TempDir
    Path temp;

    @Test
    void readmeSnippetCompiles() throws Exception {
        Markdown.Block snippet = Markdown.blocks(Docs.ROOT.resolve("README.md")).stream()
                .filter(b -> b.language().equals("java")).findFirst().orElseThrow();
        String source = """
                import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
                import io.jobinfo.store.config.JobInfoStorageConfig;
                import io.jobinfo.store.envelope.BlobEnvelope;
                import io.jobinfo.store.envelope.VerifiedBlob;
                import io.jobinfo.store.demo.model.JobImmutableInformation;
                import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
                import io.jobinfo.store.envelope.BlobSource;
                import io.jobinfo.store.spi.JobInfoStore;
                import io.jobinfo.store.spi.JobInfoStores;

                public final class ReadmeSnippet {
                    static void run(JobImmutableInformation job) throws Exception {
                """ + snippet.text() + """
                    }
                }
                """;
        compile(Map.of("ReadmeSnippet", source), false);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void integrationClassesCompileAndDoWhatThePageSays() throws Exception {
        Map<String, String> units = new java.util.LinkedHashMap<>();
        for (Markdown.Block block : Markdown.blocks(Docs.ROOT.resolve("docs/integration.md"))) {
            if (block.language().equals("java")) {
                Matcher m = TYPE.matcher(block.text());
                assertThat(m.find()).as("%s declares a public top-level type", block).isTrue();
                assertThat(units.put(m.group(1), block.text())).as("two blocks declare %s", m.group(1)).isNull();
            }
        }
        assertThat(units).containsKeys("HazelcastDataCodec", "CoordinatorJobInfo", "SubmitJob",
                "MasterSwitchRestore", "JobMasterJobInfo", "RunningJobsRest");
        ClassLoader classes = compile(units, true);

        Path storeDir = temp.resolve("store");
        Map<String, Object> engine = Map.of("jobinfo-storage", Map.of("type", "local", "namespace",
                storeDir.toString(), "store-id", "docs-it", "cache", Map.of("max-bytes", "8MiB")));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (HazelcastTestCluster cluster = new HazelcastTestCluster(2)) {
            HazelcastInstance master = cluster.master();
            HazelcastInstance other = cluster.nonMaster();
            SerializationService serialization = ((SerializationServiceSupport) master).getSerializationService();
            Class<?> coordinatorType = classes.loadClass("CoordinatorJobInfo");
            AutoCloseable onMaster = (AutoCloseable) coordinatorType
                    .getConstructor(HazelcastInstance.class, Map.class, io.micrometer.core.instrument.MeterRegistry.class)
                    .newInstance(master, engine, meters);
            AutoCloseable onOther = (AutoCloseable) coordinatorType
                    .getConstructor(HazelcastInstance.class, Map.class, io.micrometer.core.instrument.MeterRegistry.class)
                    .newInstance(other, engine, new SimpleMeterRegistry());
            try {
                RunningJobInfoRegistry<?> registry = (RunningJobInfoRegistry<?>) call(onMaster, "registry");
                RunningJobInfoRegistry<?> otherRegistry = (RunningJobInfoRegistry<?>) call(onOther, "registry");

                // submit: CoordinatorService#submitJob
                List<Long> ids = List.of(101L, 102L, 103L);
                Map<Long, Data> sent = new ConcurrentHashMap<>();
                long firstTimestamp = 0;
                for (long id : ids) {
                    Data data = serialization.toData(new java.util.HashMap<>(Map.of("jobName", "job-" + id,
                            "dag", "x".repeat(20_000))));
                    sent.put(id, data);
                    long ts = (long) callStatic(classes, "SubmitJob", "submit", registry, id, data);
                    assertThat(ts).isPositive();
                    firstTimestamp = id == 101L ? ts : firstTimestamp;
                    Thread.sleep(2); // distinct timestamps, for the ordering below
                }
                assertThat(registry.registeredValue(101L)).isInstanceOf(JobInfoPointer.class);
                assertThat(Files.list(storeDir).filter(p -> p.toString().endsWith(".jobinfo")
                        && !p.getFileName().toString().equals(io.jobinfo.store.lifecycle.NamespaceClaim.BLOB_NAME))
                        .count()).as("job blobs, not the namespace claim").isEqualTo(3);
                assertThat((long) callStatic(classes, "SubmitJob", "submit", registry, 101L, sent.get(101L)))
                        .as("a retried submit keeps the first timestamp").isEqualTo(firstTimestamp);
                assertThat((long) callStatic(classes, "JobMasterJobInfo", "initializationTimestamp", registry, 101L))
                        .isEqualTo(firstTimestamp);

                // REST on another member: list (newest first), get, count
                List<?> list = (List<?>) callStatic(classes, "RunningJobsRest", "runningJobs", otherRegistry);
                assertThat(list).hasSize(3);
                List<Long> listed = new ArrayList<>();
                for (Object entry : list) {
                    listed.add((Long) call(entry, "jobId"));
                    assertThat(call(entry, "error")).isNull();
                    Data job = (Data) call(entry, "job");
                    assertThat(job.toByteArray()).isEqualTo(sent.get((Long) call(entry, "jobId")).toByteArray());
                }
                assertThat(listed).containsExactly(103L, 102L, 101L);
                Optional<?> one = (Optional<?>) callStatic(classes, "RunningJobsRest", "runningJob", otherRegistry,
                        102L);
                assertThat(serialization.<Map<String, String>>toObject(one.orElseThrow()).get("jobName"))
                        .isEqualTo("job-102");
                assertThat(callStatic(classes, "RunningJobsRest", "runningJobCount", otherRegistry)).isEqualTo(3);

                // master switch: the other member restores; 101 runs there already, 103 has no state left
                Set<Long> restored = ConcurrentHashMap.newKeySet();
                JobRestorer<Data> jobMasters = (jobId, initializationTimestamp, job) -> {
                    assertThat(job.toByteArray()).isEqualTo(sent.get(jobId).toByteArray());
                    restored.add(jobId);
                };
                LongPredicate runsLocally = id -> id == 101L;
                LongPredicate hasJobState = id -> id != 103L;
                RestoreReport report = (RestoreReport) callStatic(classes, "MasterSwitchRestore", "restoreAll",
                        otherRegistry, runsLocally, hasJobState, jobMasters);
                assertThat(report.failed()).isEmpty();
                assertThat(restored).containsExactly(102L);
                assertThat(otherRegistry.runningJobIds()).containsExactlyInAnyOrder(101L, 102L);
                assertThat(storeDir.resolve("0000000000000067.jobinfo")).doesNotExist();
                Set<?> stillFailing = (Set<?>) callStatic(classes, "MasterSwitchRestore", "retryFailed",
                        otherRegistry, Set.of(102L), jobMasters);
                assertThat(stillFailing).isEmpty();

                // job end: JobMaster#removeJobIMap
                assertThat(callStatic(classes, "JobMasterJobInfo", "jobEnded", registry, 102L)).isEqualTo(true);
                assertThat(registry.runningJobIds()).containsExactly(101L);
                assertThat(storeDir.resolve("0000000000000066.jobinfo")).doesNotExist();
                callStatic(classes, "SubmitJob", "submitFailed", registry, 101L);
                assertThat(registry.size()).isZero();

                // the store calls were metered through MeteredJobInfoStore.open(config, meters)
                assertThat(meters.get("jobinfo.store.operations").tag("operation", "create").timers())
                        .isNotEmpty();
            } finally {
                onOther.close();
                onMaster.close();
            }
        }
    }

    /** Compiles the units into a new directory and returns a class loader over it. */
    private ClassLoader compile(Map<String, String> units, boolean strict) throws IOException {
        Path src = Files.createDirectories(temp.resolve("src-" + System.nanoTime()));
        Path out = Files.createDirectories(temp.resolve("classes-" + System.nanoTime()));
        List<File> files = new ArrayList<>();
        for (Map.Entry<String, String> unit : units.entrySet()) {
            files.add(Files.writeString(src.resolve(unit.getKey() + ".java"), unit.getValue()).toFile());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertThat(compiler).as("a JDK, not a JRE").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter messages = new StringWriter();
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, null, null)) {
            List<String> options = new ArrayList<>(List.of("--release", "17", "-classpath", classPath(), "-d",
                    out.toString(), "-proc:none"));
            if (strict) {
                options.addAll(List.of("-Xlint:all,-serial,-processing,-options,-classfile", "-Werror"));
            }
            boolean ok = compiler.getTask(messages, fm, diagnostics, options, null, fm.getJavaFileObjectsFromFiles(files))
                    .call();
            assertThat(ok).as("the docs' Java compiles: %s %s", diagnostics.getDiagnostics(), messages).isTrue();
        }
        return new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader());
    }

    private static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    private static Object call(Object target, String method, Object... args) throws Exception {
        return invoke(target.getClass(), target, method, args);
    }

    private static Object callStatic(ClassLoader loader, String type, String method, Object... args)
            throws Exception {
        return invoke(loader.loadClass(type), null, method, args);
    }

    private static Object invoke(Class<?> type, Object target, String name, Object... args) throws Exception {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length && accepts(m, args)) {
                try {
                    return m.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof Exception ex ? ex : e;
                }
            }
        }
        throw new AssertionError(type.getName() + " has no public method " + name + " for " + List.of(args));
    }

    private static boolean accepts(Method m, Object[] args) {
        Class<?>[] types = m.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i].isPrimitive() ? box(types[i]) : types[i];
            if (args[i] != null && !t.isInstance(args[i]) && !Proxy.isProxyClass(args[i].getClass())) {
                return false;
            }
        }
        return true;
    }

    private static Class<?> box(Class<?> primitive) {
        return primitive == long.class ? Long.class : primitive == int.class ? Integer.class
                : primitive == boolean.class ? Boolean.class : primitive;
    }
}
