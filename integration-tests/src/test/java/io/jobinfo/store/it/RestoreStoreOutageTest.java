package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A store outage across a master switch, on the library's way into the engine (issue 23): 2 member processes run the
 * registry on an S3 store whose server (S3Proxy in a child JVM, {@link S3ProxyProcess}) is killed with SIGKILL, then
 * the master is killed with SIGKILL and the new master restores every job while the server is still down.
 * <ul>
 *   <li>The server is back after 8 s, well within the wait ({@code restoreOutageWait}, 10 minutes by default): the
 *   restore returns with every job restored and verified, no failure, and no operator did anything. Before the
 *   registry waited out a failing store, each job failed on the first pass and the restore reported all of them.</li>
 *   <li>The server stays down past a short wait (2 s): each job fails alone, its message naming the job, its blob's
 *   location and what to check (the endpoint, the network, the server).</li>
 * </ul>
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RestoreStoreOutageTest {

    private static final int JOBS = 6;
    private static final int SIZE = 50_000;
    private static final Duration STEP = Duration.ofSeconds(120);
    private static final String BUCKET = "outage-bucket";

    @TempDir
    static Path temp;
    private static S3ProxyProcess server;

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyProcess.start(Files.createDirectories(temp.resolve("s3data")),
                temp.resolve("s3proxy.log").toFile());
        try (S3Client s3 = S3Client.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                .httpClientBuilder(ApacheHttpClient.builder()).build()) {
            s3.createBucket(b -> b.bucket(BUCKET));
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anOutageShorterThanTheWaitEndsWithEveryJobRestoredWithoutAnOperator() throws Exception {
        MemberProcess.Restored result = restoreDuringAnOutage(RunningJobInfoRegistry.DEFAULT_RESTORE_OUTAGE_WAIT,
                Duration.ofSeconds(8));
        assertThat(result.failed()).as("jobs reported failed").isEmpty();
        assertThat(result.jobs()).as("jobs restored").hasSize(JOBS);
        for (long id = 1; id <= JOBS; id++) {
            assertThat(result.jobs().get(id)).as("job %d restored intact", id).isEqualTo(Audit.expectedSha(id, SIZE));
        }
    }

    @Test
    void pastTheWaitEachJobFailsAloneNamingItsBlobAndWhatToCheck() throws Exception {
        List<String> failures = new java.util.ArrayList<>();
        MemberProcess.Restored result = restoreDuringAnOutage(Duration.ofSeconds(2), null, failures);
        assertThat(result.jobs()).as("jobs restored while the store is down").isEmpty();
        assertThat(result.failed()).as("jobs reported failed").hasSize(JOBS);
        assertThat(failures).hasSize(JOBS).allSatisfy(line -> assertThat(line)
                .containsPattern("^RESTORE_FAILED \\d+ ")
                .contains("s3://" + BUCKET + "/outage/")
                .contains("check s3.endpoint, the network and that the server is up"));
    }

    private MemberProcess.Restored restoreDuringAnOutage(Duration wait, Duration outage) throws Exception {
        return restoreDuringAnOutage(wait, outage, new java.util.ArrayList<>());
    }

    /**
     * Submits {@link #JOBS} jobs on the master, kills the S3 server, kills the master, and has the new master take
     * over and restore; the server comes back {@code outage} after the restore began ({@code null}: only once the
     * restore has returned). Lines {@code RESTORE_FAILED} go to {@code failures}.
     */
    private MemberProcess.Restored restoreDuringAnOutage(Duration wait, Duration outage, List<String> failures)
            throws Exception {
        String ns = "outage/" + UUID.randomUUID().toString().substring(0, 8);
        try (ProcessCluster cluster = new ProcessCluster("outage", 5796, 3, config(ns),
                List.of("-Xmx384m", "-Dit.restoreOutageWaitMillis=" + wait.toMillis()))) {
            cluster.start(2);
            MemberProcess master = cluster.master(STEP);
            assertThat(master.call("TAKEOVER", STEP)).startsWith("EPOCH ");
            for (long id = 1; id <= JOBS; id++) {
                assertThat(master.call("SUBMIT " + id + " " + SIZE, STEP)).isEqualTo("ACK " + id);
            }
            server.kill();
            try {
                master.kill9();
                MemberProcess next = cluster.master(STEP);
                assertThat(next.call("TAKEOVER", STEP)).startsWith("EPOCH ");
                String tag = next.send("RESTORE");
                if (outage != null) {
                    Thread.sleep(outage.toMillis());
                    server.restart();
                }
                MemberProcess.Restored restored = next.awaitRestored(tag, Duration.ofMinutes(5));
                for (String r : next.replies(tag)) {
                    if (r.startsWith("RESTORE_FAILED ")) {
                        failures.add(r);
                    }
                }
                return restored;
            } finally {
                if (outage == null) {
                    server.restart();
                }
            }
        }
    }

    private static JobInfoStorageConfig config(String namespace) {
        return JobInfoStorageConfig.builder("s3").namespace("/" + namespace)
                .option("s3.bucket", BUCKET)
                .option("s3.endpoint", server.endpoint().toString())
                .option("s3.region", "us-east-1")
                .option("s3.path-style-access", "true")
                .option("s3.access-key", server.accessKey())
                .option("s3.secret-key", server.secretKey())
                .option("s3.retry.max-attempts", "2")
                .option("s3.retry.base-delay", "100ms")
                .option("s3.retry.max-delay", "200ms")
                .option("s3.connection-timeout", "2s")
                .option("s3.probe.race-rounds", "1")
                .build();
    }
}
