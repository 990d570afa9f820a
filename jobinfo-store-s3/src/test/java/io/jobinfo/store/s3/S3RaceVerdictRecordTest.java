package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.s3.S3JobInfoStore.WriteMode;
import io.jobinfo.store.s3.testing.S3FaultProxy;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.config.JobInfoStorageConfig;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Once a start-up has seen racing conditional writers both win, every later start-up on that prefix refuses the
 * server, also one whose own race would pass, until the verdict object ({@link RaceVerdictRecord}) is deleted.
 *
 * <p>The racing server is a fake, and says so: moto 5.2.1 lets racing conditional writers both win, but only by
 * chance and it is not part of the default build; no real server here does it on demand. So a real S3Proxy
 * ({@link UnauthenticatedS3Proxy}, which lets exactly one of 8 racing writers win) sits behind {@link S3FaultProxy},
 * which holds every write 100 ms and drops {@code If-None-Match} from a write of a key while another write of the
 * same key is in flight ({@link S3FaultProxy#stripIfNoneMatchWhileWritesOverlap}): sequential second writes are
 * still refused with 412, racing ones all win, as on a server that checks, then stores. The "clean" server of the
 * later start-ups is the same S3Proxy reached directly.
 */
class S3RaceVerdictRecordTest {

    private static final String BUCKET = "verdicts";

    private static UnauthenticatedS3Proxy server;
    private static S3FaultProxy racy;

    @BeforeAll
    static void start() throws Exception {
        server = UnauthenticatedS3Proxy.start(BUCKET);
        racy = new S3FaultProxy(server.endpoint());
        racy.stripIfNoneMatchWhileWritesOverlap(100);
    }

    @AfterAll
    static void stop() throws Exception {
        racy.close();
        server.close();
    }

    /** One race round per start-up (8 x 5 MiB of completions on the clean server) is enough here. */
    private static JobInfoStorageConfig.Builder config(URI endpoint, String namespace) {
        return UnauthenticatedS3Proxy.config(endpoint, BUCKET, namespace).option("s3.probe.race-rounds", "1");
    }

    private static List<String> keys(String prefix) {
        try (S3Client client = server.client()) {
            return client.listObjectsV2(l -> l.bucket(BUCKET).prefix(prefix)).contents().stream()
                    .map(S3Object::key).toList();
        }
    }

    @Test
    void aRaceSeenOnceRefusesEveryLaterStartUpUntilTheVerdictObjectIsDeleted() throws Exception {
        String verdictKey = "seen/" + RaceVerdictRecord.NAME;
        String verdictLocation = "s3://" + BUCKET + "/" + verdictKey;

        // the start-up that sees the race refuses and records it
        ConditionalWriteRaceProbe.forgetVerdicts();
        assertThatThrownBy(() -> JobInfoStores.open(config(racy.endpoint(), "/seen").build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("does not honour conditional writes")
                .hasMessageContaining("racing PutObject requests with If-None-Match: * on one new key succeeded")
                .hasMessageContaining("recorded in " + verdictLocation)
                .hasMessageContaining("s3.allow-unconditional-writes=true");
        assertThat(keys("seen/")).as("what the refused start-up left").containsExactly(verdictKey);
        try (S3Client client = server.client()) {
            assertThat(client.getObjectAsBytes(g -> g.bucket(BUCKET).key(verdictKey)).asUtf8String())
                    .contains("via " + racy.endpoint()).contains("racing PutObject requests");
        }

        // a later start-up on the clean server, whose own race would pass, refuses too while the object exists
        ConditionalWriteRaceProbe.forgetVerdicts();
        int before = racy.requestLines().size();
        assertThatThrownBy(() -> JobInfoStores.open(config(server.endpoint(), "/seen").build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("does not honour conditional writes")
                .hasMessageContaining("an earlier start-up recorded in " + verdictLocation)
                .hasMessageContaining("once the server is fixed or replaced, delete it")
                .hasMessageContaining("aws s3 rm " + verdictLocation + " --endpoint-url " + server.endpoint());
        assertThat(racy.requestLines()).as("the racy proxy was not used again").hasSize(before);

        // the weaker mode, asked for, opens; the store's listing does not show the verdict object
        try (S3JobInfoStore weak = (S3JobInfoStore) JobInfoStores.open(config(server.endpoint(), "/seen")
                .option("s3.allow-unconditional-writes", "true").build())) {
            assertThat(weak.writeMode()).isEqualTo(WriteMode.UNCONDITIONAL);
            assertThat(weak.list()).isEmpty();
        }

        // the verdict is per prefix: another one on the clean server opens, and a pass is not recorded
        try (S3JobInfoStore other = (S3JobInfoStore) JobInfoStores.open(config(server.endpoint(),
                "/other").build())) {
            assertThat(other.writeMode()).isEqualTo(WriteMode.CONDITIONAL);
        }
        assertThat(keys("other/")).as("a pass leaves no verdict").isEmpty();

        // deleted once the server is fixed: the next start-up races again and opens
        try (S3Client client = server.client()) {
            client.deleteObject(d -> d.bucket(BUCKET).key(verdictKey));
        }
        ConditionalWriteRaceProbe.forgetVerdicts();
        try (S3JobInfoStore fixed = (S3JobInfoStore) JobInfoStores.open(config(server.endpoint(),
                "/seen").build())) {
            assertThat(fixed.writeMode()).isEqualTo(WriteMode.CONDITIONAL);
        }
        assertThat(keys("seen/")).as("a pass records nothing").isEmpty();
    }
}
