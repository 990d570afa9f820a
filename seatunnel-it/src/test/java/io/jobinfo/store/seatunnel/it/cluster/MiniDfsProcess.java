package io.jobinfo.store.seatunnel.it.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real HDFS for the SeaTunnel members: jobinfo-store-hdfs's {@code MiniDfsMain} (MiniDFSCluster of the project's
 * Hadoop) in a JVM of its own, on the class path that module's build writes to {@code target/minidfs.classpath}
 * (system properties {@code seatunnel.it.minidfs.classpath} and {@code seatunnel.it.minidfs.classes}). The members
 * reach it over loopback with SeaTunnel's Hadoop 3.1.4 client; this JVM never loads a Hadoop class.
 *
 * <p>{@link #start} throws {@link IllegalStateException} naming the child's log if the cluster does not report ready
 * within two minutes or the class path file is missing (build the module with {@code -am}). {@link #close()} closes
 * the child's stdin (it then shuts HDFS down), waits up to 30 s, then kills it; a shutdown hook of this JVM kills it
 * too if a test run is aborted.
 */
public final class MiniDfsProcess implements AutoCloseable {

    static final String MAIN = "io.jobinfo.store.hdfs.MiniDfsMain";
    static final String READY = "MINIDFS-READY ";

    private final Process process;
    private final URI uri;
    private final Path log;
    private final Thread hook;

    private MiniDfsProcess(Process process, URI uri, Path log, Thread hook) {
        this.process = process;
        this.uri = uri;
        this.log = log;
        this.hook = hook;
    }

    /** Starts a NameNode and {@code dataNodes} DataNodes storing under {@code dir}; the child's output goes to {@code dir/minidfs.log}. */
    public static MiniDfsProcess start(Path dir, int dataNodes) {
        Path log = dir.resolve("minidfs.log");
        Process p;
        try {
            Files.createDirectories(dir);
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx512m");
            cmd.add("-XX:+UseSerialGC");
            cmd.add("-XX:TieredStopAtLevel=1");
            cmd.add("-Dlogback.configurationFile=logback-test.xml"); // that module's: WARN, Hadoop ERROR, on stdout
            cmd.add(MAIN);
            cmd.add(dir.resolve("data").toAbsolutePath().toString());
            cmd.add(Integer.toString(dataNodes));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().put("CLASSPATH", classpath());
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start MiniDfsMain (log " + log + ")", e);
        }
        Process child = p;
        Thread hook = new Thread(child::destroyForcibly, "seatunnel-it-minidfs-kill");
        Runtime.getRuntime().addShutdownHook(hook);
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith(READY)) {
                        ready.complete(line.substring(READY.length()).trim());
                    } else {
                        Files.writeString(log, line + System.lineSeparator(), StandardCharsets.UTF_8,
                                StandardOpenOption.CREATE, StandardOpenOption.APPEND); // its log lines
                    }
                }
            } catch (IOException childGone) {
                // ends the wait below
            }
            ready.complete(null);
        }, "seatunnel-it-minidfs-stdout");
        reader.setDaemon(true);
        reader.start();
        String answer;
        try {
            answer = ready.get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            answer = null;
        }
        if (answer == null) {
            child.destroyForcibly();
            throw new IllegalStateException("MiniDFSCluster did not report ready within 2 minutes; see " + log);
        }
        return new MiniDfsProcess(child, URI.create(answer), log, hook);
    }

    private static String classpath() throws IOException {
        String file = System.getProperty("seatunnel.it.minidfs.classpath");
        String classes = System.getProperty("seatunnel.it.minidfs.classes");
        if (file == null || classes == null || !Files.isRegularFile(Path.of(file))) {
            throw new IllegalStateException("no MiniDFS class path (" + file + "): build jobinfo-store-hdfs first, "
                    + "mvn -pl seatunnel-it -am verify");
        }
        return classes + File.pathSeparator + Files.readString(Path.of(file)).trim();
    }

    /** The NameNode's {@code hdfs://127.0.0.1:<port>} URI. */
    public URI uri() {
        return uri;
    }

    public Path log() {
        return log;
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
