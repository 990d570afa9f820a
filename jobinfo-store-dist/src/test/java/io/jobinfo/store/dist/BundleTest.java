package io.jobinfo.store.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release bundle as an operator gets it: {@code tar tzf} lists the plug-in, the CLI launcher and lib, the docs,
 * LICENSE, NOTICE and SHA256SUMS; the checksums verify with {@code sha256sum -c}; NOTICE names every third-party jar of
 * the CLI's lib and every library whose classes are shaded into the plug-in jar (found from the jar's classes, not from
 * the build's own listing); the launcher runs. Runs after {@code package} (phase integration-test).
 */
class BundleTest {

    /** {@code (group:artifact:version - url)} in the license plugin's listing. */
    private static final Pattern COORDINATES = Pattern.compile("\\(([\\w.\\-]+):([\\w.\\-]+):([\\w.\\-]+) - ");
    private static final String SHADED = "io/jobinfo/store/shaded/";

    @TempDir
    static Path extracted;

    private static Path bundle;
    private static String version;
    private static String root;
    private static Path home;
    private static List<String> listing;

    @BeforeAll
    static void extract() throws Exception {
        bundle = Paths.get(System.getProperty("jobinfo.bundle"));
        version = System.getProperty("jobinfo.version");
        root = "jobinfo-store-" + version + "/";
        assertThat(bundle).as("run by Maven after package").exists();
        listing = run(bundle.getParent(), "tar", "tzf", bundle.toString());
        run(extracted, "tar", "xzf", bundle.toString(), "-C", extracted.toString());
        home = extracted.resolve(root);
    }

    @Test
    void tarListsPluginCliDocsLicenseNoticeAndChecksums() throws IOException {
        assertThat(listing).allMatch(entry -> entry.startsWith(root), "one top directory, " + root);
        assertThat(listing).contains(root + "plugin/jobinfo-store-seatunnel-plugin-" + version + ".jar",
                root + "bin/jobinfo-store", root + "cli/jobinfo-store-cli.jar", root + "LICENSE", root + "NOTICE",
                root + "SHA256SUMS", root + "README.md");
        assertThat(listing).contains(root + "cli/lib/picocli-" + picocliVersion() + ".jar");
        try (Stream<Path> docs = Files.list(Paths.get(System.getProperty("jobinfo.docs")))) {
            List<String> expected = docs.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".md"))
                    .map(n -> root + "docs/" + n).collect(Collectors.toList());
            assertThat(expected).isNotEmpty();
            assertThat(listing).containsAll(expected);
        }
        // the demo and its in-JVM servers stay in the source tree
        assertThat(listing).noneMatch(e -> e.contains("jobinfo-store-demo-" + version + ".jar")
                || e.contains("hadoop-client-minicluster") || e.contains("s3proxy") || e.contains("jetty-server"));
        assertThat(Files.isExecutable(home.resolve("bin/jobinfo-store"))).isTrue();
        assertThat(new String(Files.readAllBytes(home.resolve("LICENSE")), StandardCharsets.UTF_8))
                .contains("Apache License", "Version 2.0, January 2004");
    }

    @Test
    void checksumsOfEveryJarAndOfTheArchiveVerify() throws Exception {
        run(home, "sha256sum", "--strict", "-c", "SHA256SUMS");
        Set<String> summed = new TreeSet<>();
        for (String line : Files.readAllLines(home.resolve("SHA256SUMS"), StandardCharsets.UTF_8)) {
            assertThat(line).matches("[0-9a-f]{64}  \\S+");
            summed.add(line.substring(66));
        }
        Set<String> jars = new TreeSet<>();
        try (Stream<Path> files = Files.walk(home)) {
            files.filter(p -> p.toString().endsWith(".jar")).forEach(p -> jars.add(home.relativize(p).toString()));
        }
        assertThat(summed).isEqualTo(jars);
        Path archiveSum = Paths.get(bundle + ".sha256");
        assertThat(new String(Files.readAllBytes(archiveSum), StandardCharsets.UTF_8).trim())
                .endsWith("  " + bundle.getFileName());
        run(bundle.getParent(), "sha256sum", "--strict", "-c", archiveSum.getFileName().toString());
    }

    @Test
    void noticeNamesEveryThirdPartyJarOfTheCliLib() throws IOException {
        List<String[]> named = noticeCoordinates();
        List<String> missing = new ArrayList<>();
        for (Path jar : jarsIn(home.resolve("cli/lib"))) {
            String name = jar.getFileName().toString();
            if (name.startsWith("jobinfo-store-")) {
                continue; // this project's, under LICENSE
            }
            boolean found = named.stream().anyMatch(c -> name.equals(c[1] + "-" + c[2] + ".jar")
                    || name.startsWith(c[1] + "-" + c[2] + "-"));
            if (!found) {
                missing.add(name);
            }
        }
        assertThat(missing).as("cli/lib jars NOTICE does not name").isEmpty();
    }

    @Test
    void noticeNamesEveryLibraryShadedIntoThePlugin() throws IOException {
        Path repo = Paths.get(System.getProperty("jobinfo.repo.local"));
        // every class path of every library NOTICE names, by each of its suffixes at a '/' (relocation drops a prefix)
        Set<String> suffixes = new HashSet<>();
        for (String[] c : noticeCoordinates()) {
            Path dir = repo.resolve(c[0].replace('.', '/')).resolve(c[1]).resolve(c[2]);
            for (Path jar : jarsIn(dir)) {
                if (!jar.getFileName().toString().startsWith(c[1] + "-" + c[2])) {
                    continue;
                }
                try (ZipFile zip = new ZipFile(jar.toFile())) {
                    for (ZipEntry e : Collections.list(zip.entries())) {
                        String path = e.getName().toLowerCase(Locale.ROOT);
                        if (path.endsWith(".class") && !path.startsWith("meta-inf/")) {
                            for (int i = 0; i >= 0; i = path.indexOf('/', i + 1)) {
                                suffixes.add(path.substring(i == 0 ? 0 : i + 1));
                            }
                        }
                    }
                }
            }
        }
        Map<String, Integer> uncovered = new TreeMap<>();
        int shaded = 0;
        Path plugin = home.resolve("plugin/jobinfo-store-seatunnel-plugin-" + version + ".jar");
        try (ZipFile zip = new ZipFile(plugin.toFile())) {
            for (ZipEntry e : Collections.list(zip.entries())) {
                String path = e.getName();
                if (!path.endsWith(".class") || path.startsWith("META-INF/")
                        || path.startsWith("io/jobinfo/store/") && !path.startsWith(SHADED)) {
                    continue; // this project's own classes
                }
                shaded++;
                String original = path.startsWith(SHADED) ? path.substring(SHADED.length()) : path;
                if (!suffixes.contains(original.toLowerCase(Locale.ROOT))) {
                    String[] parts = path.split("/");
                    uncovered.merge(String.join("/", java.util.Arrays.copyOf(parts, Math.min(parts.length - 1, 7))),
                            1, Integer::sum);
                }
            }
        }
        assertThat(shaded).as("third-party classes in the plug-in jar").isGreaterThan(1000);
        assertThat(uncovered).as("packages of the plug-in jar whose library NOTICE does not name (class counts)")
                .isEmpty();
    }

    /**
     * The ops CLI and the plug-in run on Java 8 (SeaTunnel hosts run 8 or 11): every class of the CLI's jar, of every
     * jar in its lib and of the plug-in jar is class file version 52 or lower. Classes under
     * {@code META-INF/versions/N/} of a multi-release jar load only on Java N and later, and are not counted.
     */
    @Test
    void everyClassTheCliAndThePluginLoadIsJava8Bytecode() throws IOException {
        List<Path> jars = new ArrayList<>(jarsIn(home.resolve("cli")));
        jars.addAll(jarsIn(home.resolve("cli/lib")));
        jars.addAll(jarsIn(home.resolve("plugin")));
        assertThat(jars).hasSizeGreaterThan(50);
        Map<String, Integer> tooNew = new TreeMap<>();
        int classes = 0;
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (ZipEntry e : Collections.list(zip.entries())) {
                    String name = e.getName();
                    if (!name.endsWith(".class") || name.startsWith("META-INF/versions/")
                            || name.endsWith("module-info.class")) {
                        continue;
                    }
                    classes++;
                    try (java.io.DataInputStream in = new java.io.DataInputStream(zip.getInputStream(e))) {
                        assertThat(in.readInt()).as(jar + "!/" + name).isEqualTo(0xCAFEBABE);
                        in.readUnsignedShort();
                        int major = in.readUnsignedShort();
                        if (major > 52) {
                            tooNew.merge(jar.getFileName() + " (Java " + (major - 44) + ")", 1, Integer::sum);
                        }
                    }
                }
            }
        }
        assertThat(classes).isGreaterThan(10_000);
        assertThat(tooNew).as("jars with classes newer than Java 8 (class counts)").isEmpty();
    }

    /** cli/lib holds exactly the jars the CLI jar's manifest Class-Path names: none missing, none extra. */
    @Test
    void theCliLibIsExactlyTheClassPathOfTheCliJar() throws IOException {
        Set<String> classPath;
        try (java.util.jar.JarFile cli = new java.util.jar.JarFile(home.resolve("cli/jobinfo-store-cli.jar").toFile())) {
            classPath = new TreeSet<>(java.util.Arrays.asList(cli.getManifest().getMainAttributes()
                    .getValue(java.util.jar.Attributes.Name.CLASS_PATH).trim().split("\\s+")));
        }
        Set<String> lib = jarsIn(home.resolve("cli/lib")).stream().map(p -> "lib/" + p.getFileName())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(lib).isEqualTo(classPath);
    }

    @Test
    void theLauncherRunsTheOpsCommandsAndNoDemo() throws Exception {
        Path launcher = home.resolve("bin/jobinfo-store");
        assertThat(run(home, launcher.toString(), "--version")).containsExactly("jobinfo-store " + version);
        String help = String.join("\n", run(home, launcher.toString(), "--help"));
        assertThat(help).contains("migrate", "verify", "gc", "inspect", "rebuild-pointers", "check-config").doesNotContain("demo");
    }

    /**
     * The CLI's lib carries no Hadoop (184 MB before, with it): at most a third of that. A local store needs nothing
     * more; an hdfs store runs on the Hadoop of a SeaTunnel installation (SEATUNNEL_HOME's seatunnel-hadoop3 uber jar,
     * the one SeaTunnel 2.3.8's own distribution puts into lib/: here from the local Maven repository) and, without
     * one, is refused (exit 2) with a message that says what to set.
     */
    @Test
    void theCliLibHoldsNoHadoopAndAnHdfsStoreUsesSeaTunnelsOwn(@TempDir Path dir) throws Exception {
        long bytes = 0;
        for (Path jar : jarsIn(home.resolve("cli/lib"))) {
            assertThat(jar.getFileName().toString()).as("cli/lib").doesNotStartWith("hadoop-");
            bytes += Files.size(jar);
        }
        assertThat(bytes).as("bytes of cli/lib (a third of the 184 MB it had with Hadoop and the demo's servers)")
                .isLessThanOrEqualTo(184_000_000L / 3);

        Path launcher = home.resolve("bin/jobinfo-store");
        Path local = Files.write(dir.resolve("local.yaml"), ("jobinfo-storage:\n  type: local\n  namespace: "
                + dir.resolve("store") + "\n").getBytes(StandardCharsets.UTF_8));
        // a NameNode address nobody listens on: opening the store proves Hadoop's client loaded and ran
        Path hdfs = Files.write(dir.resolve("hdfs.yaml"), ("jobinfo-storage:\n  type: hdfs\n  namespace: /jobinfo\n"
                + "  plugin-config:\n    fs.defaultFS: hdfs://127.0.0.1:1\n"
                + "    seatunnel.hadoop.ipc.client.connect.max.retries: 0\n").getBytes(StandardCharsets.UTF_8));
        Map<String, String> none = new TreeMap<>();

        Exec opened = exec(home, none, launcher.toString(), "check-config", "--storage-config", local.toString(),
                "--open-store");
        assertThat(opened.exit).as(opened.output).isZero();
        assertThat(dir.resolve("store")).isDirectory();

        Exec refused = exec(home, none, launcher.toString(), "check-config", "--storage-config", hdfs.toString());
        assertThat(refused.exit).as(refused.output).isEqualTo(2);
        assertThat(refused.output).contains("'hdfs' store cannot run in this process", "org/apache/hadoop",
                "SEATUNNEL_HOME", "JOBINFO_STORE_CLASSPATH").doesNotContain("\tat ");

        Path seatunnelHome = Files.createDirectories(dir.resolve("seatunnel/lib")).getParent();
        String st = System.getProperty("jobinfo.seatunnel.version");
        Path uber = Paths.get(System.getProperty("jobinfo.repo.local"), "org/apache/seatunnel",
                "seatunnel-hadoop3-3.1.4-uber", st, "seatunnel-hadoop3-3.1.4-uber-" + st + "-optional.jar");
        assertThat(uber).as("SeaTunnel's Hadoop (a test dependency of this module)").isRegularFile();
        Files.copy(uber, seatunnelHome.resolve("lib").resolve(uber.getFileName()));
        Map<String, String> withHome = new TreeMap<>();
        withHome.put("SEATUNNEL_HOME", seatunnelHome.toString());
        Exec valid = exec(home, withHome, launcher.toString(), "check-config", "--storage-config", hdfs.toString());
        assertThat(valid.exit).as(valid.output).isZero();
        Exec unreachable = exec(home, withHome, launcher.toString(), "check-config", "--storage-config",
                hdfs.toString(), "--open-store");
        assertThat(unreachable.exit).as(unreachable.output).isEqualTo(3);
        assertThat(unreachable.output).contains("Connection refused");
    }

    /** A finished command: exit code and output (stdout and stderr). */
    private static final class Exec {
        final int exit;
        final String output;

        Exec(int exit, String output) {
            this.exit = exit;
            this.output = output;
        }
    }

    /**
     * Runs a command in {@code dir} with this JVM as JAVA_HOME, SEATUNNEL_HOME and JOBINFO_STORE_CLASSPATH unset
     * unless {@code env} sets them.
     */
    private static Exec exec(Path dir, Map<String, String> env, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().remove("SEATUNNEL_HOME");
        pb.environment().remove("JOBINFO_STORE_CLASSPATH");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        String out;
        try (Stream<String> lines = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8)).lines()) {
            out = lines.collect(Collectors.joining("\n"));
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command) + " ends").isTrue();
        return new Exec(p.exitValue(), out);
    }

    private static List<String[]> noticeCoordinates() throws IOException {
        String notice = new String(Files.readAllBytes(home.resolve("NOTICE")), StandardCharsets.UTF_8);
        List<String[]> coordinates = new ArrayList<>();
        Matcher m = COORDINATES.matcher(notice);
        while (m.find()) {
            coordinates.add(new String[] {m.group(1), m.group(2), m.group(3)});
        }
        assertThat(coordinates).as("libraries named in NOTICE").hasSizeGreaterThan(50);
        return coordinates;
    }

    private static String picocliVersion() throws IOException {
        return noticeCoordinates().stream().filter(c -> c[1].equals("picocli")).findFirst()
                .orElseThrow(() -> new AssertionError("NOTICE names no picocli"))[2];
    }

    private static List<Path> jarsIn(Path dir) throws IOException {
        List<Path> jars = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.jar")) {
                s.forEach(jars::add);
            }
        }
        return jars;
    }

    /** Runs a command in {@code dir} with this JVM as JAVA_HOME, and returns its output; fails unless it exits 0. */
    private static List<String> run(Path dir, String... command) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            Process p = pb.start();
            p.getOutputStream().close();
            List<String> out;
            try (Stream<String> lines = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8)).lines()) {
                out = lines.collect(Collectors.toList());
            }
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command) + " ends").isTrue();
            assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out.stream().limit(20)
                    .collect(Collectors.joining("\n"))).isZero();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
