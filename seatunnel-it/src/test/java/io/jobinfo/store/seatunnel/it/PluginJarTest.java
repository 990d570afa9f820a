package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.seatunnel.it.cluster.SeaTunnelProcessCluster;
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
