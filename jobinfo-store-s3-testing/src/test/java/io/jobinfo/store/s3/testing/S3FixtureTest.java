package io.jobinfo.store.s3.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The fixture's server is usable and honours the conditional writes the S3 store relies on. */
@ExtendWith(S3FixtureExtension.class)
class S3FixtureTest {

    @Test
    void freshBucketsAreEmptyAndDistinct(S3Fixture s3) {
        String a = s3.createBucket("fixture");
        String b = s3.createBucket("fixture");
        assertThat(a).isNotEqualTo(b);
        try (S3Client client = s3.newClient()) {
            assertThat(client.listObjectsV2(r -> r.bucket(a)).contents()).isEmpty();
            client.putObject(r -> r.bucket(a).key("x"), RequestBody.fromString("1"));
            assertThat(client.listObjectsV2(r -> r.bucket(a)).contents()).hasSize(1);
            assertThat(client.listObjectsV2(r -> r.bucket(b)).contents()).isEmpty();
        }
    }

    @Test
    void ifNoneMatchStarIsHonoured(S3Fixture s3) {
        String bucket = s3.createBucket("fixture-cond");
        try (S3Client client = s3.newClient()) {
            client.putObject(r -> r.bucket(bucket).key("k").ifNoneMatch("*"), RequestBody.fromString("first"));
            assertThatThrownBy(() -> client.putObject(r -> r.bucket(bucket).key("k").ifNoneMatch("*"),
                    RequestBody.fromString("second")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
            assertThat(client.getObjectAsBytes(r -> r.bucket(bucket).key("k")).asString(StandardCharsets.UTF_8))
                    .isEqualTo("first");
        }
    }

    @Test
    void toStringNeverShowsTheSecret(S3Fixture s3) {
        assertThat(s3.toString()).doesNotContain(s3.secretKey()).contains(s3.endpoint().toString());
    }
}
