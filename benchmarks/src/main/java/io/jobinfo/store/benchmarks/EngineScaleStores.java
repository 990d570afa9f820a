package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers of the drop-in's other stores in the real-engine scale scenario ({@code --engine-scale-stores}): an
 * S3Proxy or a MiniDFSCluster in this JVM ({@link Backends}), on 127.0.0.1, which the scenario's member processes
 * reach over loopback through the {@code jobinfo-storage:} section this class writes for them. One server per store
 * for the whole scenario, a namespace of its own per cluster; {@link #close()} stops them.
 *
 * <p>Failure: a server that cannot start is not fatal: {@link #notes()} says why and the store is left out
 * ({@link #started()}).
 */
final class EngineScaleStores implements AutoCloseable {

    /** The store the drop-in's cluster beside stock always may run on (no server). */
    static final String LOCAL = "local";

    private final Map<String, Backend> servers = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    /** Starts a server under {@code work} for every store of {@code stores} but {@link #LOCAL}. */
    EngineScaleStores(List<String> stores, Path work) {
        for (String s : stores) {
            if (s.equals(LOCAL)) {
                continue;
            }
            try {
                servers.put(s, Backends.start(s, work.resolve("engine-store-" + s)));
                ScenarioBenchmark.log("drop-in store %s for the scale scenario: %s", s, servers.get(s).describe());
            } catch (Backends.Unavailable e) {
                notes.add("The drop-in on " + s + " was not measured: " + e.getMessage());
            }
        }
    }

    /** The stores other than {@link #LOCAL} whose server runs, in the order asked. */
    List<String> started() {
        return List.copyOf(servers.keySet());
    }

    /** What went wrong at start-up, one note per store left out. */
    List<String> notes() {
        return List.copyOf(notes);
    }

    /** What the report says of the store's server. */
    String describe(String store) {
        return servers.get(store).describe();
    }

    /**
     * Writes the {@code jobinfo-storage:} section of {@code store} with namespace {@code ns} (lines under
     * {@code seatunnel.engine}) to {@code file} and returns the file.
     *
     * @throws java.io.IOException if the file cannot be written
     * @throws IllegalArgumentException if the store has no running server
     */
    Path writeSection(String store, String ns, Path file) throws java.io.IOException {
        Backend b = servers.get(store);
        if (b == null) {
            throw new IllegalArgumentException("no server of store " + store + " runs: " + servers.keySet());
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, section(b.config(ns)), StandardCharsets.UTF_8);
        return file;
    }

    /**
     * The section of {@code c}: its type, namespace, a 32 MiB cache as the local drop-in has, and its options as
     * {@code plugin-config} (double-quoted); HDFS gets replication 1, the one DataNode of the in-JVM cluster.
     */
    static String section(JobInfoStorageConfig c) {
        StringBuilder y = new StringBuilder("jobinfo-storage:\n  type: ").append(c.type()).append("\n  namespace: ")
                .append(quoted(c.namespace())).append("\n  cache:\n    max-bytes: 32MiB\n  plugin-config:\n");
        Map<String, String> options = new LinkedHashMap<>(c.pluginConfig());
        if (c.type().equals("hdfs")) {
            options.putIfAbsent("seatunnel.hadoop.dfs.replication", "1");
        }
        options.forEach((k, v) -> y.append("    ").append(k).append(": ").append(quoted(v)).append('\n'));
        return y.toString();
    }

    private static String quoted(String v) {
        return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Override
    public void close() {
        servers.values().forEach(Backend::close);
        servers.clear();
    }
}
