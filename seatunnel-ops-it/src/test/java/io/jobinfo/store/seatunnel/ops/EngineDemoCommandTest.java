package io.jobinfo.store.seatunnel.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code jobinfo-store demo --engine seatunnel} as a user runs it: the demo module's jar (what {@code bin/jobinfo-store}
 * runs) in a process of its own (it runs Hazelcast 5.7; SeaTunnel's 5.1 cannot share its class path), which starts the
 * harness's scenario JVM, which starts a stock and then a drop-in SeaTunnel 2.3.8 cluster of 3 member processes,
 * submits 2 small real jobs (+1 warm-up) to each, kills the master with SIGKILL and waits for every job to be RUNNING
 * again. Checks the exit code, the JSON figures and that no member process outlives the demo. Small jobs only: the
 * default build's time budget.
 */
class EngineDemoCommandTest {

    @Test
    void theDemoOnTheRealEngineReportsStockAgainstDropInAndEveryJobComesBack() throws Exception {
        Path work = SeaTunnelClusterExtension.TARGET.resolve("EngineDemoCommandTest").toAbsolutePath();
        deleteRecursively(work);
        Path stdout = Files.createDirectories(work.getParent()).resolve("EngineDemoCommandTest.out");
        Path stderr = work.getParent().resolve("EngineDemoCommandTest.err");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Djobinfo.seatunnel.harness=" + System.getProperty("seatunnel.it.harness"),
                "-jar", System.getProperty("seatunnel.it.demo.jar"),
                "demo", "--engine", "seatunnel", "--jobs", "2", "--job-sizes", "small", "--work-dir", work.toString(),
                "--json"));
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        String err = Files.readString(stderr, StandardCharsets.UTF_8);
        String out = Files.readString(stdout, StandardCharsets.UTF_8);
        assertThat(ended).as("the demo ended within 5 minutes; stderr:\n%s", err).isTrue();
        assertThat(p.exitValue()).as("exit code; stderr:\n%s\nstdout:\n%s", err, out).isZero();

        JsonNode s = new ObjectMapper().readTree(out);
        assertThat(s.path("allRunning").asBoolean()).isTrue();
        assertThat(s.path("members").asInt()).isEqualTo(3);
        JsonNode stock = s.path("stock");
        JsonNode dropin = s.path("dropin");
        long stockBytes = stock.path("bytesPerJob").path("small").asLong();
        long dropinBytes = dropin.path("bytesPerJob").path("small").asLong();
        // a ~10 KB JobImmutableInformation held twice (owned + backup) on the stock engine, a small reference with
        // the drop-in
        assertThat(stockBytes).as("stock bytes per job").isGreaterThan(15_000);
        assertThat(dropinBytes).as("drop-in bytes per job").isPositive().isLessThanOrEqualTo(500);
        assertThat(stockBytes).isGreaterThan(dropinBytes);
        assertThat(s.path("ratiosDropInOverStock").path("bytesPerJob").path("small").asDouble()).isLessThan(0.05);
        for (JsonNode v : List.of(stock, dropin)) {
            assertThat(v.path("submitP50Millis").asDouble()).isPositive();
            assertThat(v.path("submitP99Millis").asDouble()).isGreaterThanOrEqualTo(v.path("submitP50Millis").asDouble());
            assertThat(v.path("jobsAtKill").asInt()).as("2 jobs + the warm-up").isEqualTo(3);
            assertThat(v.path("jobsRunningAgain").asInt()).isEqualTo(3);
            assertThat(v.path("notRunning").size()).isZero();
            assertThat(v.path("killToAllRunningMillis").asLong()).isGreaterThanOrEqualTo(
                    v.path("killToNewMasterMillis").asLong()).isPositive();
        }
        // the scale figures: map bytes over all jobs, the members' live heap after a full GC, REST on a non-master
        assertThat(stock.path("mapBytesPerJob").asLong()).as("stock map bytes per job").isGreaterThan(15_000);
        assertThat(dropin.path("mapBytesPerJob").asLong()).as("drop-in map bytes per job").isBetween(1L, 500L);
        for (JsonNode v : List.of(stock, dropin)) {
            assertThat(v.path("liveHeapBytes").asLong()).as("live heap of 3 members").isGreaterThan(3L << 20);
            assertThat(v.path("restRunningJobsP50Millis").asDouble()).isPositive();
            assertThat(v.path("restJobInfoP50Millis").asDouble()).isPositive();
        }
        for (String v : List.of("stock", "dropin")) {
            JsonNode raw = s.path("variants").path(v);
            assertThat(raw.path("liveHeap").size()).isEqualTo(3);
            int masterPort = -1;
            for (JsonNode member : raw.path("liveHeap")) {
                masterPort = member.path("master").asBoolean() ? member.path("port").asInt() : masterPort;
            }
            assertThat(masterPort).as("one member is the master").isPositive();
            assertThat(raw.path("rest").path("port").asInt()).as("REST asked of a member that is not the master")
                    .isNotEqualTo(masterPort);
            assertThat(raw.path("rest").path("jobInfoRequests").asInt()).isEqualTo(3);
        }
        // the drop-in's new master restored every job through the store
        assertThat(dropin.path("newMasterStoreReads").asLong()).isGreaterThanOrEqualTo(3);
        assertThat(dropin.path("newMasterReadFailures").asLong()).isZero();
        // the raw rows: every drop-in job's blob is in the store, its map value is the small reference
        for (JsonNode job : s.path("variants").path("dropin").path("jobs")) {
            assertThat(job.path("blobBytes").asLong()).isGreaterThan(5_000);
            assertThat(job.path("mapValueBytes").asLong()).isBetween(1L, 199L);
        }
        assertThat(err).contains("[stock] kill -9 of the master").contains("[dropin] every job RUNNING again");

        // nothing outlives the demo: no process runs with a file of its work directory
        List<String> left = ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .map(h -> h.info().commandLine().orElse(""))
                .filter(c -> c.contains(work.toString())).toList();
        assertThat(left).as("processes left behind").isEmpty();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
