package io.jobinfo.store.s3;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.net.URI;
import java.util.Properties;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3Proxy 4.1.0 server (transient blob store) in this JVM that checks no signatures, for tests that put
 * {@link io.jobinfo.store.s3.testing.S3FaultProxy} in front of it to drop {@code If-None-Match} from some requests:
 * the header is signed, so dropping it only works without authentication. It honours {@code If-None-Match: *} on
 * PutObject and CompleteMultipartUpload, atomically (one winner of 8 racing writers).
 */
final class UnauthenticatedS3Proxy implements AutoCloseable {

    private final S3Proxy server;
    private final URI endpoint;

    private UnauthenticatedS3Proxy(S3Proxy server) {
        this.server = server;
        this.endpoint = URI.create("http://127.0.0.1:" + server.getPort());
    }

    /** Starts a server with the given buckets. */
    static UnauthenticatedS3Proxy start(String... buckets) throws Exception {
        S3Proxy server = S3Proxy.builder()
                .blobStore(BlobStores.create("transient", new Properties()))
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.NONE, "", "")
                .build();
        server.start();
        while (!"STARTED".equals(server.getState())) {
            Thread.sleep(10);
        }
        UnauthenticatedS3Proxy started = new UnauthenticatedS3Proxy(server);
        try (S3Client client = started.client()) {
            for (String bucket : buckets) {
                client.createBucket(b -> b.bucket(bucket));
            }
        }
        return started;
    }

    URI endpoint() {
        return endpoint;
    }

    /** A client straight to the server (not through a proxy). */
    S3Client client() {
        return S3Client.builder().endpointOverride(endpoint).forcePathStyle(true).region(Region.US_EAST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .httpClientBuilder(ApacheHttpClient.builder()).build();
    }

    /** A store configuration for {@code bucket} on {@code endpoint} (this server, or a proxy in front of it). */
    static JobInfoStorageConfig.Builder config(URI endpoint, String bucket, String namespace) {
        return JobInfoStorageConfig.builder("s3").namespace(namespace)
                .option("s3.bucket", bucket).option("s3.endpoint", endpoint.toString())
                .option("s3.access-key", "any").option("s3.secret-key", "any");
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
