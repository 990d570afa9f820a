package io.jobinfo.store.cli.ops;

import static io.jobinfo.store.cli.ops.OpsFixture.args;
import static io.jobinfo.store.cli.ops.OpsFixture.cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.map.IMap;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, exit codes: {@code migrate} stopped by SIGTERM ({@code kill}) or SIGINT (Ctrl-C) finishes the entries in
 * progress, prints its report (cancelled) and exits 1, as its help says ("the run was interrupted: rerun"), not the
 * JVM's 143 or 130; every entry is inline or a valid pointer and a rerun finishes. The migrator is a process of its
 * own (the real command line, its own JVM) against a real two-member cluster.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MigrateSignalExitCodeTest {

    private static final int JOBS = 400;
    private static final long FIRST_ID = 30_001;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static HazelcastTestCluster cluster;
    private static Map<Long, byte[]> jobs;

    @TempDir
    Path dir;

    private String mapName;
    private IMap<Long, Object> map;
    private Path storeDir;
    private Path yaml;
    private List<String> conn;

    @BeforeAll
    static void startCluster() {
        cluster = new HazelcastTestCluster(2);
        jobs = OpsFixture.encodedJobs(FIRST_ID, JOBS, 64 * 1024);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
        jobs = null;
    }

    @BeforeEach
    void freshMapAndStore() throws Exception {
        mapName = "signalled-" + System.nanoTime();
        map = cluster.master().getMap(mapName);
        storeDir = dir.resolve("store");
        yaml = OpsFixture.storageYaml(dir, storeDir);
        conn = OpsFixture.connection(cluster, mapName, yaml);
    }

    @AfterEach
    void dropMap() {
        map.destroy();
    }

    @Test
    void sigtermStopsMigrateWithItsReportAndExitCodeOne() throws Exception {
        stopHalfWayWith("TERM");
    }

    @Test
    void sigintStopsMigrateWithItsReportAndExitCodeOne() throws Exception {
        stopHalfWayWith("INT");
    }

    private void stopHalfWayWith(String signal) throws Exception {
        Map<Long, InlineJobInfo> originals = OpsFixture.putInline(map, jobs);
        Path stdout = dir.resolve("migrate.out");
        Path stderr = dir.resolve("migrate.err");
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"),
                "-Xmx384m", "-XX:+UseSerialGC", "-Dhazelcast.logging.type=slf4j",
                "-cp", System.getProperty("java.class.path"),
                "io.jobinfo.store.cli.JobInfoStoreCli"));
        command.addAll(List.of(args(conn, "migrate", "--parallelism", "1", "--json", "--progress", "lines")));
        Process child = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .start();
        int exit;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (OpsFixture.countBlobs(storeDir) < 5) {
                if (!child.isAlive()) {
                    fail("migrate exited (" + child.exitValue() + ") before the signal:\n" + Files.readString(stderr));
                }
                if (System.nanoTime() > deadline) {
                    fail("migrate made no progress in 120 s:\n" + Files.readString(stderr));
                }
                Thread.sleep(5);
            }
            if (signal.equals("INT")) {
                // a process started with SIGINT ignored (a background job of a shell without job control) keeps it
                // ignored: the JVM then never sees Ctrl-C, whatever the command does
                Assumptions.assumeFalse(ignores(child.pid(), 2), "SIGINT is ignored in this environment");
            }
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(child.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).isZero();
            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("migrate ended after SIG%s", signal).isTrue();
            exit = child.exitValue();
        } finally {
            child.destroyForcibly();
        }
        String out = Files.readString(stdout);
        String err = Files.readString(stderr);
        assertThat(exit).as("exit code after SIG%s (help: 1 = interrupted, rerun)%n%s%n%s", signal, out, err)
                .isEqualTo(1);
        JsonNode report = JSON.readTree(out);
        assertThat(report.get("cancelled").asBoolean()).isTrue();
        assertThat(report.get("exitCode").asInt()).isEqualTo(1);
        int migrated = report.get("migrated").asInt();
        assertThat(migrated).isBetween(5, JOBS - 1);
        assertThat(report.get("notProcessed").asInt()).isPositive();

        int pointers = 0;
        try (JobInfoStore store = OpsFixture.openStore(yaml)) {
            for (long id : jobs.keySet()) {
                Object v = map.get(id);
                if (v instanceof JobInfoPointer p) {
                    VerifiedBlob blob = store.read(id);
                    assertThat(p.matches(blob.header())).as("job %d", id).isTrue();
                    pointers++;
                } else {
                    assertThat(v).as("job %d", id).isEqualTo(originals.get(id));
                }
            }
        }
        assertThat(pointers).isEqualTo(migrated);
        OpsFixture.Run rerun = cli(args(conn, "migrate", "--json", "--progress", "none"));
        assertThat(rerun.exit()).as(rerun.err()).isZero();
        assertThat(JSON.readTree(rerun.out()).get("migrated").asInt()).isEqualTo(JOBS - pointers);
    }

    /** Whether process {@code pid} ignores signal {@code number} (its SigIgn mask in /proc). */
    private static boolean ignores(long pid, int number) throws Exception {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        if (!Files.exists(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
                return (mask & (1L << (number - 1))) != 0;
            }
        }
        return false;
    }
}
