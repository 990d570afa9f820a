package io.jobinfo.store.s3.testing;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ceph's RADOS Gateway (Debian's {@code radosgw} 16.2, a production S3 server) on a single-host Ceph cluster of its
 * own, started from the installed packages for the tests of this JVM: one monitor, one OSD with the in-memory
 * object store ({@code memstore}, pool size 1), no manager, no authentication inside the cluster, and radosgw with
 * the beast frontend on 127.0.0.1 and a free port. An S3 user of its own ({@code radosgw-admin user create}, random
 * keys) is created; tests create their buckets through S3. Everything lives in a temporary directory that is
 * removed, with every daemon stopped, when the JVM exits. About 20-30 s to start, ~200-500 MB of memory.
 *
 * <p>Test classes declare {@code @ExtendWith(RgwInstalled.class)}: their tests are reported as skipped,
 * naming what is missing, when the Ceph binaries are not installed ({@code apt-get install radosgw ceph-mon ceph-osd
 * ceph-common}) or when {@code -Djobinfo.s3.rgw=off}. {@link #shared()} itself also skips its caller then (a JUnit
 * assumption). If they are installed but the cluster does not come up, it throws
 * {@link IllegalStateException} with the failing command and the tail of the daemons' logs, and every later call
 * throws it again. Secrets are never logged or put into a message.
 */
public final class RgwServer {

    /** {@code -Djobinfo.s3.rgw=off} skips the RGW tests even where Ceph is installed. */
    public static final String PROP_RGW = "jobinfo.s3.rgw";

    private static final Logger LOG = LoggerFactory.getLogger(RgwServer.class);
    private static final List<String> BINARIES = Arrays.asList("radosgw", "radosgw-admin", "ceph-mon", "ceph-osd",
            "monmaptool", "ceph");
    private static final String RGW_NAME = "client.rgw.jobinfo";
    private static final long START_SECONDS = 180;
    private static final int CEPH_ATTEMPTS = 5;

    private static RgwServer shared;
    private static RuntimeException startFailure;

    private final Path dir;
    private final Path conf;
    private final List<Process> daemons = new ArrayList<>();
    private URI endpoint;
    private String accessKey;
    private String secretKey;
    private long startMillis;

    private RgwServer(Path dir) {
        this.dir = dir;
        this.conf = dir.resolve("ceph.conf");
    }

    /**
     * The RGW of this JVM, started on the first call (and stopped when the JVM exits).
     *
     * @throws IllegalStateException Ceph is not installed ({@link #unavailable()} says so), or RGW did not start
     */
    public static synchronized RgwServer shared() {
        String reason = unavailable();
        if (reason != null) {
            throw new IllegalStateException(reason);
        }
        if (startFailure != null) {
            throw startFailure;
        }
        if (shared == null) {
            Path dir = null;
            RgwServer rgw = null;
            try {
                dir = Files.createTempDirectory("rgw-fixture-");
                rgw = new RgwServer(dir);
                RgwServer started = rgw;
                Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "rgw-fixture-stop"));
                rgw.start();
                shared = rgw;
                LOG.warn("S3 fixture: Ceph RGW at {} (started in {} ms)", rgw.endpoint, rgw.startMillis);
            } catch (Exception e) {
                String logs = rgw == null ? "" : rgw.logTails();
                if (rgw != null) {
                    rgw.stop();
                }
                startFailure = new IllegalStateException("Ceph RGW did not start: " + e.getMessage() + logs, e);
                throw startFailure;
            }
        }
        return shared;
    }

    /** Why the RGW tests cannot run here, or {@code null} if they can. */
    public static String unavailable() {
        if ("off".equalsIgnoreCase(System.getProperty(PROP_RGW, ""))) {
            return "Ceph RGW tests switched off by -D" + PROP_RGW + "=off";
        }
        List<String> missing = missingBinaries();
        return missing.isEmpty() ? null : "Ceph RGW not installed: " + String.join(", ", missing)
                + " not on the PATH (apt-get install radosgw ceph-mon ceph-osd ceph-common)";
    }

    /** The Ceph binaries not on the PATH; empty if all are there. */
    public static List<String> missingBinaries() {
        List<String> missing = new ArrayList<>();
        for (String b : BINARIES) {
            if (!onPath(b)) {
                missing.add(b);
            }
        }
        return missing;
    }

    /**
     * Creates bucket {@code name} with this server's user (a client as RGW 16 needs it: no trailing checksum, no
     * aws-chunked bodies) and returns its name.
     */
    public String createBucket(String name) {
        try (software.amazon.awssdk.services.s3.S3Client s3 = S3Clients.client(endpoint, "us-east-1", true, accessKey,
                secretKey, true, o -> { })) {
            s3.createBucket(b -> b.bucket(name));
        }
        return name;
    }

    public URI endpoint() {
        return endpoint;
    }

    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    /** How long the cluster took to come up. */
    public long startMillis() {
        return startMillis;
    }

    @Override
    public String toString() {
        return "RgwServer{" + endpoint + '}'; // never a key
    }

    private void start() throws Exception {
        long t0 = System.nanoTime();
        int monPort = freePort();
        int rgwPort = freePort();
        for (String sub : new String[] {"mon", "osd", "run", "log", "rgw"}) {
            Files.createDirectories(dir.resolve(sub));
        }
        String fsid = UUID.randomUUID().toString();
        String d = dir.toString();
        String config = String.join("\n",
                "[global]",
                "fsid = " + fsid,
                "mon host = [v1:127.0.0.1:" + monPort + "]",
                "ms bind msgr2 = false",
                "public addr = 127.0.0.1",
                "cluster addr = 127.0.0.1",
                "auth cluster required = none",
                "auth service required = none",
                "auth client required = none",
                "mon allow pool size one = true",
                "mon allow pool delete = true",
                "mon warn on pool no redundancy = false",
                "mon max pg per osd = 1000",
                "osd pool default size = 1",
                "osd pool default min size = 1",
                "osd pool default pg num = 8",
                "osd pool default pgp num = 8",
                "osd pool default pg autoscale mode = off",
                "osd crush chooseleaf type = 0",
                // The OSD would place itself in the CRUSH map at start with a monitor command that, right after the
                // monitor started, now and then goes out before it knows the cluster's fsid ('wrong fsid', exit 1):
                // placed below instead.
                "osd crush update on start = false",
                "osd class update on start = false",
                "osd objectstore = memstore",
                "memstore device bytes = 2147483648",
                "mon data = " + d + "/mon/$cluster-$id",
                "osd data = " + d + "/osd/$cluster-$id",
                "run dir = " + d + "/run",
                "admin socket = " + d + "/run/$name.asok",
                "pid file = " + d + "/run/$name.pid",
                "log file = " + d + "/log/$name.log",
                "keyring = " + d + "/keyring",
                "",
                "[" + RGW_NAME + "]",
                "rgw frontends = beast endpoint=127.0.0.1:" + rgwPort,
                "rgw data = " + d + "/rgw",
                "rgw enable usage log = false",
                "");
        Files.write(conf, config.getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("keyring"), new byte[0]);

        run(60, true, "monmaptool", "--create", "--fsid", fsid, "--addv", "a", "[v1:127.0.0.1:" + monPort + "]",
                d + "/monmap");
        run(60, true, "ceph-mon", "-c", conf.toString(), "--mkfs", "-i", "a", "--monmap", d + "/monmap");
        daemon("ceph-mon", "-c", conf.toString(), "-f", "-i", "a");

        String osdUuid = UUID.randomUUID().toString();
        String osdId = ceph("osd", "new", osdUuid).trim();
        if (!osdId.matches("\\d+")) {
            throw new IllegalStateException("'ceph osd new' answered '" + osdId + "', not an OSD id");
        }
        ceph("osd", "crush", "add", "osd." + osdId, "1.0", "root=default", "host=rgw-fixture");
        Files.createDirectories(dir.resolve("osd").resolve("ceph-" + osdId)); // mkfs writes into it
        run(60, true, "ceph-osd", "-c", conf.toString(), "-i", osdId, "--mkfs", "--osd-uuid", osdUuid);
        daemon("ceph-osd", "-c", conf.toString(), "-f", "-i", osdId);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (!ceph("osd", "stat").contains("1 up")) {
            checkAlive(deadline, "the OSD to be up");
            Thread.sleep(250);
        }

        daemon("radosgw", "-c", conf.toString(), "-f", "-n", RGW_NAME);
        endpoint = URI.create("http://127.0.0.1:" + rgwPort);
        while (!answers(endpoint)) {
            checkAlive(deadline, "radosgw to answer on " + endpoint);
            Thread.sleep(250);
        }
        SecureRandom random = new SecureRandom();
        accessKey = "JOBINFO" + randomAlnum(random, 13).toUpperCase(Locale.ROOT);
        secretKey = randomAlnum(random, 40);
        // its output holds the keys: never shown
        run(120, false, "radosgw-admin", "-c", conf.toString(), "-n", RGW_NAME, "user", "create",
                "--uid=jobinfo-test", "--display-name=jobinfo test", "--access-key=" + accessKey,
                "--secret-key=" + secretKey);
        startMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    /**
     * Runs a {@code ceph} command against the monitor, again (up to {@value #CEPH_ATTEMPTS} attempts, 1 s apart) when
     * the monitor refused it transiently: right after a daemon joins, a client's command now and then reaches the
     * monitor before the client knows the cluster's fsid, and the monitor answers {@code EPERM} ("problem getting
     * command descriptions", logged as "handle_command on fsid 0000... != ..."). Any other failure, and the last
     * transient one, is thrown.
     */
    private String ceph(String... args) throws Exception {
        String[] command = new String[args.length + 5];
        command[0] = "ceph";
        command[1] = "-c";
        command[2] = conf.toString();
        command[3] = "--connect-timeout";
        command[4] = "30";
        System.arraycopy(args, 0, command, 5, args.length);
        for (int attempt = 1; ; attempt++) {
            try {
                return run(60, true, command);
            } catch (IllegalStateException e) {
                if (attempt >= CEPH_ATTEMPTS || !isTransientMonitorRefusal(e.getMessage())) {
                    throw e;
                }
                LOG.warn("ceph {} refused transiently (attempt {} of {}), again in 1 s", args[0], attempt,
                        CEPH_ATTEMPTS);
                Thread.sleep(1000);
            }
        }
    }

    /** Whether a failed {@code ceph} command's message is the monitor's transient refusal (see {@link #ceph}). */
    static boolean isTransientMonitorRefusal(String message) {
        return message != null && (message.contains("problem getting command descriptions")
                || message.contains("wrong fsid"));
    }

    private void checkAlive(long deadline, String waitingFor) {
        for (Process p : daemons) {
            if (!p.isAlive()) {
                throw new IllegalStateException(p.info().command().orElse("a Ceph daemon") + " exited with "
                        + p.exitValue() + " while waiting for " + waitingFor);
            }
        }
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("timed out after " + START_SECONDS + " s waiting for " + waitingFor);
        }
    }

    /** Stops every daemon and removes the directory. */
    private synchronized void stop() {
        for (int i = daemons.size() - 1; i >= 0; i--) {
            daemons.get(i).destroy();
        }
        for (int i = daemons.size() - 1; i >= 0; i--) {
            Process p = daemons.get(i);
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        daemons.clear();
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }

    private void daemon(String... command) throws IOException {
        String name = command[0];
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("log").resolve(name + ".out").toFile());
        daemons.add(pb.start());
    }

    /**
     * Runs a command to its end and returns its output.
     *
     * @param showOutput whether the output may appear in an exception message (false when it holds a secret)
     */
    private String run(int timeoutSeconds, boolean showOutput, String... command) throws Exception {
        Path out = Files.createTempFile(dir.resolve("log"), command[0], ".out");
        Path err = Files.createTempFile(dir.resolve("log"), command[0], ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(command[0] + " did not finish within " + timeoutSeconds + " s"
                        + (showOutput ? ": " + tail(out) + "\n" + tail(err) : ""));
            }
            String output = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(command[0] + " " + (command.length > 1 ? command[1] : "")
                        + " exited with " + p.exitValue() + (showOutput ? ": " + output.trim() + "\n" + tail(err)
                        : ""));
            }
            return output;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private String logTails() {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> logs = Files.list(dir.resolve("log"))) {
            logs.filter(p -> p.getFileName().toString().endsWith(".log") || p.getFileName().toString()
                    .endsWith(".out")).filter(p -> !p.getFileName().toString().startsWith("radosgw-admin"))
                    .sorted().forEach(p -> sb.append("\n--- ").append(p.getFileName()).append(":\n")
                            .append(tail(p)));
        } catch (IOException e) {
            sb.append("\n(no logs: ").append(e).append(')');
        }
        return sb.toString();
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static boolean answers(URI endpoint) {
        try {
            HttpURLConnection c = (HttpURLConnection) new URL(endpoint.toString() + "/").openConnection();
            c.setConnectTimeout(500);
            c.setReadTimeout(2000);
            int status = c.getResponseCode();
            c.disconnect();
            return status > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String randomAlnum(SecureRandom random, int length) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    private static boolean onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            File f = new File(d, name);
            if (f.isFile() && f.canExecute()) {
                return true;
            }
        }
        return false;
    }
}
