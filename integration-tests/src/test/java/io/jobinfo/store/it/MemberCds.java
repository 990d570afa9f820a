package io.jobinfo.store.it;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Class-data sharing for member JVMs (a speed-up of the long mode only, which starts three member JVMs per round):
 * a dynamic CDS archive of the classes a member loads, dumped by one warm-up member per backend, that every member
 * JVM of that backend then maps instead of loading and verifying Hazelcast, the registry and the store from the jars
 * (measured on this 2-core machine: about 45% less CPU to start a member). The JVM refuses to archive with a
 * non-empty directory on the classpath, so the member JVMs get a classpath on which the test-classes directory is
 * replaced by a jar of it (empty directories are dropped).
 *
 * <p>On any failure (the warm-up member does not start, does not answer, or the JVM wrote no archive) {@link
 * #options} returns the options without the archive and says why in the returned {@link Result#note}: the run
 * is then only slower, never different.
 */
final class MemberCds {

    private static final Path DIR = Path.of("target", "member-cds");
    private static String classpath;

    private MemberCds() {
    }

    /** JVM options for the members of one backend, and what happened. */
    record Result(List<String> options, String note) {
    }

    /**
     * Dumps an archive with a warm-up member on {@code storage} (port {@code port}, alone in a cluster of its own,
     * on a namespace of its own: it submits, restores, reads and removes one job, then exits) and returns the JVM
     * options that use it, after {@code base}.
     */
    static Result options(String backend, JobInfoStorageConfig storage, int port, int jobBytes, List<String> base) {
        List<String> out = new ArrayList<>(base);
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(DIR);
            String cp = jarredClasspath();
            Path jsa = DIR.resolve(backend + "-" + UUID.randomUUID().toString().substring(0, 8) + ".jsa")
                    .toAbsolutePath();
            List<String> dump = new ArrayList<>(base);
            dump.addAll(List.of("-cp", cp, "-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:disable",
                    "-Xlog:all=warning:stderr"));
            MemberProcess m = MemberProcess.start("cds-warmup-" + backend, "cds-warmup-" + UUID.randomUUID(), port,
                    port, 1, storage, DIR, dump);
            try {
                Duration step = Duration.ofMinutes(2);
                expect(m.call("TAKEOVER", step), "EPOCH ");
                expect(m.call("SUBMIT 1 " + jobBytes, step), "ACK 1");
                m.restoreAll(step);
                expect(m.call("GET 1 " + jobBytes, step), "GOT 1 ");
                expect(m.call("REMOVE 1", step), "REMOVED 1 true");
                m.send("EXIT");
                if (!m.process().waitFor(2, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the warm-up member did not exit within 2 min");
                }
            } finally {
                m.kill9();
            }
            if (!Files.isRegularFile(jsa) || Files.size(jsa) == 0) {
                throw new IllegalStateException("the JVM wrote no archive " + jsa + " (see " + DIR
                        + "/cds-warmup-" + backend + ".stderr.log)");
            }
            out.addAll(List.of("-cp", cp, "-XX:SharedArchiveFile=" + jsa, "-Xlog:disable",
                    "-Xlog:all=warning:stderr"));
            return new Result(out, "member JVMs use a CDS archive of " + Files.size(jsa) / (1024 * 1024)
                    + " MiB dumped in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) + " s");
        } catch (Exception e) {
            return new Result(List.copyOf(base), "member JVMs start without a CDS archive: " + e);
        }
    }

    private static void expect(String reply, String prefix) {
        if (!reply.startsWith(prefix)) {
            throw new IllegalStateException("warm-up member answered '" + reply + "', expected " + prefix + "...");
        }
    }

    /** The test classpath with every non-empty directory replaced by a jar of it (made once per JVM). */
    static synchronized String jarredClasspath() throws IOException {
        if (classpath != null) {
            return classpath;
        }
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String e : ChildJvms.testClasspath().split(File.pathSeparator)) {
            if (e.isEmpty()) {
                continue;
            }
            Path p = Path.of(e);
            if (!Files.isDirectory(p)) {
                entries.add(e);
                continue;
            }
            boolean empty;
            try (Stream<Path> s = Files.list(p)) {
                empty = s.findAny().isEmpty();
            }
            if (!empty) {
                Path jar = DIR.resolve("classpath-dir-" + (n++) + ".jar").toAbsolutePath();
                jar(p, jar);
                entries.add(jar.toString());
            }
        }
        classpath = String.join(File.pathSeparator, entries);
        return classpath;
    }

    private static void jar(Path dir, Path jar) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(os)) {
            for (Path f : files) {
                out.putNextEntry(new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }
}
