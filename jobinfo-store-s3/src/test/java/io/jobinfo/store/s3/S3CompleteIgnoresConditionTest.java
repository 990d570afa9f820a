package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.s3.S3JobInfoStore.WriteMode;
import io.jobinfo.store.s3.testing.S3FaultProxy;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The start-up probe's {@link WriteMode#SINGLE_PUT} choice in the default build, without Ceph: a server that honours
 * {@code If-None-Match: *} on PutObject and ignores it on CompleteMultipartUpload, as Ceph RGW 16.2 does (measured on
 * the real RGW by {@code S3RgwTest}, which runs only where Ceph is installed). No server of the default build
 * behaves so on demand, so a fault injector produces it: a real S3Proxy ({@link UnauthenticatedS3Proxy}) behind
 * {@link S3FaultProxy}, which drops the header from completions ({@code POST ...?uploadId=}) only. The probe must
 * say so in its start-up line, and then a blob above the part size must be one conditional PutObject (the proxy
 * sees every request: no multipart upload is started), of which exactly one of 8 racing creators wins.
 */
class S3CompleteIgnoresConditionTest {

    private static final String BUCKET = "rgw-like";
    private static final int BLOB_BYTES = 6 << 20;
    private static final int CREATORS = 8;

    private static UnauthenticatedS3Proxy server;
    private static S3FaultProxy rgwLike;

    @BeforeAll
    static void start() throws Exception {
        server = UnauthenticatedS3Proxy.start(BUCKET);
        rgwLike = new S3FaultProxy(server.endpoint());
        rgwLike.stripIfNoneMatchFromCompletes();
    }

    @AfterAll
    static void stop() throws Exception {
        rgwLike.close();
        server.close();
    }

    private static S3JobInfoStore open(String namespace) throws Exception {
        // 5 MiB parts from 5 MiB on, so that the 6 MiB blob would be a multipart upload in CONDITIONAL mode; one race
        // round (8 x 5 MiB) is enough here: the verdict under test comes from the sequential checks
        return (S3JobInfoStore) JobInfoStores.open(UnauthenticatedS3Proxy.config(rgwLike.endpoint(), BUCKET,
                namespace).option("s3.multipart.threshold", "5MiB").option("s3.multipart.part-size", "5MiB")
                .option("s3.probe.race-rounds", "1").build());
    }

    /** Request lines from {@code from} on that start, or would start or complete, a multipart upload. */
    private static List<String> multipartRequests(int from) {
        List<String> lines = rgwLike.requestLines();
        return lines.subList(from, lines.size()).stream()
                .filter(l -> l.contains("?uploads") || l.contains("uploadId=")).toList();
    }

    @Test
    void theProbeChoosesSinglePutAndABlobAboveThePartSizeIsOneConditionalPutObject() throws Exception {
        ConditionalWriteRaceProbe.forgetVerdicts();
        List<ILoggingEvent> events = new ArrayList<>();
        List<S3JobInfoStore> opened = new ArrayList<>();
        S3ConfigurationTest.withLogsCaptured(events, Level.INFO, List.of("io.jobinfo.store.s3"),
                () -> opened.add(open("/single")));
        try (S3JobInfoStore store = opened.get(0)) {
            assertThat(store.writeMode()).isEqualTo(WriteMode.SINGLE_PUT);
            assertThat(events).filteredOn(e -> e.getFormattedMessage().startsWith("S3 job info store open"))
                    .singleElement().satisfies(e -> assertThat(e.getFormattedMessage())
                            .contains("conditional writes: verified on PutObject")
                            .contains("ignored by CompleteMultipartUpload (CompleteMultipartUpload with"
                                    + " If-None-Match: * on an existing key succeeded")
                            .contains("every blob is one conditional PutObject"));

            int from = rgwLike.requestLines().size();
            byte[] envelope = BlobEnvelope.wrap(1, 1, TestBlobs.randomPayload(1, BLOB_BYTES));
            assertThat(store.create(1, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
            List<String> lines = rgwLike.requestLines();
            assertThat(lines.subList(from, lines.size())).as("requests of the create")
                    .filteredOn(l -> l.startsWith("PUT ")).singleElement().asString()
                    .contains("/" + BUCKET + "/single/" + "0000000000000001.jobinfo");
            assertThat(multipartRequests(from)).as("multipart requests of the create").isEmpty();
            assertThat(store.read(1).payload()).isEqualTo(TestBlobs.randomPayload(1, BLOB_BYTES));
        }
    }

    @Test
    void eightRacingCreatorsOfABlobAboveThePartSizeLeaveExactlyOneWinner() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CREATORS);
        try (S3JobInfoStore store = open("/race")) {
            assertThat(store.writeMode()).isEqualTo(WriteMode.SINGLE_PUT);
            int from = rgwLike.requestLines().size();
            CyclicBarrier together = new CyclicBarrier(CREATORS);
            List<Future<String>> creators = new ArrayList<>();
            for (int i = 0; i < CREATORS; i++) {
                byte[] envelope = BlobEnvelope.wrap(7, 1, TestBlobs.randomPayload(100 + i, BLOB_BYTES));
                creators.add(pool.submit(() -> {
                    together.await();
                    try {
                        return store.create(7, BlobSource.ofBytes(envelope)).name();
                    } catch (BlobAlreadyExistsException lost) {
                        return "LOST";
                    }
                }));
            }
            List<String> outcomes = new ArrayList<>();
            for (Future<String> c : creators) {
                outcomes.add(c.get(120, TimeUnit.SECONDS));
            }
            assertThat(outcomes).as("outcomes of %s racing creators", CREATORS)
                    .containsOnlyOnce(CreateOutcome.CREATED.name())
                    .containsOnly(CreateOutcome.CREATED.name(), "LOST");
            int winner = outcomes.indexOf(CreateOutcome.CREATED.name());
            assertThat(store.read(7).payload()).as("the winner's bytes")
                    .isEqualTo(TestBlobs.randomPayload(100 + winner, BLOB_BYTES));
            assertThat(multipartRequests(from)).as("multipart requests of the racing creates").isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }
}
