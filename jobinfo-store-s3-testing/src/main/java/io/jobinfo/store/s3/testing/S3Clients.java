package io.jobinfo.store.s3.testing;

import java.net.URI;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/** The raw SDK clients of the test servers ({@link S3Fixture}, {@link RgwServer}); no JUnit in it. */
final class S3Clients {

    private S3Clients() {
    }

    /**
     * A raw SDK client for an S3 endpoint (the caller closes it).
     *
     * @param plainBodies RGW 16 answers the SDK's default trailing checksums with 400 XAmzContentSHA256Mismatch, and
     *                    an empty body sent as signed aws-chunked with a bare 400: plain bodies for the raw client there
     */
    static S3Client client(URI endpoint, String region, boolean pathStyle, String accessKey, String secretKey,
                           boolean plainBodies, Consumer<ClientOverrideConfiguration.Builder> overrides) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .forcePathStyle(pathStyle)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .httpClientBuilder(ApacheHttpClient.builder())
                .requestChecksumCalculation(plainBodies ? RequestChecksumCalculation.WHEN_REQUIRED
                        : RequestChecksumCalculation.WHEN_SUPPORTED)
                .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(!plainBodies).build())
                .overrideConfiguration(overrides)
                .build();
    }
}
