package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drop-in jar as it goes into SeaTunnel's lib/: every class is the project's own or relocated under
 * {@code io.jobinfo.store.shaded} (nothing can clash with what lib/ holds; no Hazelcast, SeaTunnel, Hadoop or SLF4J
 * inside), the service files that activate it are there, and every class a service or interceptor file names is in
 * the jar (a name the relocation missed would fail only at run time).
 */
class PluginJarTest {

    @Test
    void everyClassIsOursOrRelocatedAndEveryNamedClassIsPresent() throws IOException {
        try (JarFile jar = new JarFile(SeaTunnelProcessCluster.pluginJar().toFile())) {
            Set<String> classes = new HashSet<>();
            List<String> foreign = new ArrayList<>();
            List<String> listings = new ArrayList<>();
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.endsWith(".class")) {
                    classes.add(name.substring(0, name.length() - 6).replace('/', '.'));
                    if (!name.startsWith("io/jobinfo/store/")) {
                        foreign.add(name);
                    }
                } else if (name.startsWith("META-INF/services/") && !name.endsWith("/")
                        || name.endsWith("execution.interceptors")) {
                    listings.add(name);
                }
            }
            assertThat(foreign).as("classes neither ours nor relocated").isEmpty();
            // test seams stay in test code: the jar users install cannot park a member (issue 23 item 4)
            assertThat(classes).as("test seams in the jar users install")
                    .noneMatch(c -> c.contains("CrashPoint") || c.contains(".Test") || c.endsWith("Test"));
            assertThat(listings).doesNotContain("META-INF/services/io.jobinfo.store.seatunnel.dropin.DropInStepListener");
            assertThat(listings).contains("META-INF/services/com.hazelcast.SerializerHook",
                    "META-INF/services/com.hazelcast.spi.impl.servicemanager.ServiceDescriptorProvider",
                    "META-INF/services/io.jobinfo.store.spi.JobInfoStoreFactory");
            for (String listing : listings) {
                for (String named : lines(jar, listing)) {
                    assertThat(classes).as("class named by %s", listing).contains(named);
                }
            }
            assertThat(lines(jar, "META-INF/services/io.jobinfo.store.spi.JobInfoStoreFactory")).containsExactlyInAnyOrder(
                    "io.jobinfo.store.local.LocalJobInfoStoreFactory", "io.jobinfo.store.s3.S3JobInfoStoreFactory",
                    "io.jobinfo.store.hdfs.HdfsJobInfoStoreFactory");
        }
    }

    /** Packages the shading rewrites: a class that names one of them differs from its compiled form. */
    private static final List<String> RELOCATED = List.of("com/github/benmanes", "com/esotericsoftware", "org/objenesis",
            "org/yaml/snakeyaml", "io/micrometer", "org/HdrHistogram", "org/LatencyUtils", "org/apache/commons/codec",
            "software/amazon", "org/apache/http", "org/apache/hc", "org/reactivestreams", "io/netty",
            // AutoValue's generated equals(@Nullable Object): the plugin relocates JSpecify
            "org/jspecify");

    /**
     * The jar holds the drop-in classes of this build (a stale shaded jar once kept old ones): byte for byte for every
     * class the relocation leaves alone, present for the others.
     */
    @Test
    void theDropInClassesAreThoseOfThisBuild() throws IOException {
        java.nio.file.Path classes = java.nio.file.Path.of(System.getProperty("seatunnel.it.dropin.classes"));
        java.nio.file.Path dropin = classes.resolve("io/jobinfo/store/seatunnel/dropin");
        List<java.nio.file.Path> compiled;
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(dropin)) {
            compiled = s.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertThat(compiled).isNotEmpty();
        List<String> compared = new ArrayList<>();
        try (JarFile jar = new JarFile(SeaTunnelProcessCluster.pluginJar().toFile())) {
            for (java.nio.file.Path p : compiled) {
                String entry = classes.relativize(p).toString().replace(java.io.File.separatorChar, '/');
                JarEntry inJar = jar.getJarEntry(entry);
                assertThat(inJar).as("%s in the plugin jar", entry).isNotNull();
                byte[] built = java.nio.file.Files.readAllBytes(p);
                String text = new String(built, StandardCharsets.ISO_8859_1);
                if (RELOCATED.stream().anyMatch(text::contains)) {
                    continue;
                }
                try (java.io.InputStream in = jar.getInputStream(inJar)) {
                    assertThat(in.readAllBytes()).as("%s in the plugin jar, against this build's", entry)
                            .isEqualTo(built);
                }
                compared.add(entry);
            }
        }
        assertThat(compared).contains("io/jobinfo/store/seatunnel/dropin/JobInfoMover.class");
    }

    /**
     * The telemetry collector registers into SeaTunnel's own Prometheus client: the jar names its classes unrelocated
     * and holds none of them (a relocated copy would be a registry the engine never serves).
     */
    @Test
    void theTelemetryCollectorNamesSeaTunnelsOwnPrometheusClient() throws IOException {
        try (JarFile jar = new JarFile(SeaTunnelProcessCluster.pluginJar().toFile())) {
            JarEntry collector = jar.getJarEntry("io/jobinfo/store/seatunnel/dropin/DropInCollector.class");
            assertThat(collector).isNotNull();
            String text;
            try (java.io.InputStream in = jar.getInputStream(collector)) {
                text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            }
            assertThat(text).contains("io/prometheus/client/CollectorRegistry", "io/prometheus/client/Collector")
                    .doesNotContain("shaded/prometheus");
            assertThat(java.util.Collections.list(jar.entries())).noneMatch(e -> e.getName().contains("prometheus"));
        }
    }

    private static List<String> lines(JarFile jar, String entry) throws IOException {
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(jar.getInputStream(jar.getEntry(entry)),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String l = line.replaceAll("#.*", "").trim();
                if (!l.isEmpty()) {
                    out.add(l);
                }
            }
        }
        return out;
    }
}
