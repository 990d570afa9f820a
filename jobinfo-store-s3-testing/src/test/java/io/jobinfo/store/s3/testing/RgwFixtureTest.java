package io.jobinfo.store.s3.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The Ceph RGW fixture answers S3 with its own user, and is the server the S3 store's checks are about: it refuses the
 * AWS SDK's default trailing checksums, honours {@code If-None-Match: *} on PutObject and ignores it on
 * CompleteMultipartUpload. Skipped, naming what is missing, without the Ceph packages.
 */
@ExtendWith(RgwInstalled.class)
class RgwFixtureTest {

    static S3Fixture rgw;

    @BeforeAll
    static void start() {
        rgw = S3Fixture.rgw();
    }

    @Test
    void rgwStoresAndReadsWithItsOwnUserAndBucket() {
        String bucket = rgw.createBucket("fixture");
        assertThat(rgw.kind()).isEqualTo(S3Fixture.Kind.RGW);
        try (S3Client client = rgw.newClient()) {
            client.putObject(r -> r.bucket(bucket).key("k").ifNoneMatch("*"), RequestBody.fromString("first"));
            assertThatThrownBy(() -> client.putObject(r -> r.bucket(bucket).key("k").ifNoneMatch("*"),
                    RequestBody.fromString("second")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
            assertThat(client.getObjectAsBytes(r -> r.bucket(bucket).key("k")).asString(StandardCharsets.UTF_8))
                    .isEqualTo("first");
        }
        assertThat(rgw.toString()).doesNotContain(rgw.secretKey());
    }

    @Test
    void rgwRefusesTheSdksDefaultTrailingChecksum() {
        String bucket = rgw.createBucket("fixture-crc");
        try (S3Client sdkDefaults = S3Client.builder().endpointOverride(rgw.endpoint()).region(Region.US_EAST_1)
                .forcePathStyle(true).httpClientBuilder(ApacheHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(rgw.accessKey(),
                        rgw.secretKey()))).build()) {
            assertThatThrownBy(() -> sdkDefaults.putObject(r -> r.bucket(bucket).key("k"),
                    RequestBody.fromString("x")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(400);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("XAmzContentSHA256Mismatch");
                    });
        }
    }
}
