package io.jobinfo.store.it;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.spi.StoreNaming;
import java.net.InetSocketAddress;
import java.net.URI;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The shared S3 fixture of {@code jobinfo-store-s3}: an external endpoint ({@code -Djobinfo.s3.endpoint}), MinIO
 * through Testcontainers where a Docker engine runs, else S3Proxy in this JVM. One bucket for the suite; each test
 * uses a namespace (key prefix) of its own.
 */
final class S3Backend implements Backend {

    private final S3Fixture fixture;
    private final String bucket;
    private final S3Client raw;

    /**
     * {@code -Djobinfo.it.s3.server=rgw} runs the S3 rows of the suite against Ceph's RADOS Gateway ({@link
     * S3Fixture#rgw()}, a production S3 server started from the Debian packages) instead of the shared fixture; the
     * backend is then named {@code s3-rgw} in the reports.
     */
    static final String PROP_SERVER = "jobinfo.it.s3.server";

    private final boolean rgw = "rgw".equalsIgnoreCase(System.getProperty(PROP_SERVER, ""));

    S3Backend() {
        this.fixture = rgw ? S3Fixture.rgw() : S3Fixture.shared();
        this.bucket = fixture.createBucket("jobinfo-it");
        this.raw = fixture.newClient();
    }

    @Override
    public String name() {
        return rgw ? "s3-rgw" : "s3";
    }

    @Override
    public JobInfoStorageConfig config(String namespace) {
        return builder(namespace, fixture.endpoint()).build();
    }

    private JobInfoStorageConfig.Builder builder(String namespace, URI endpoint) {
        return JobInfoStorageConfig.builder("s3").namespace("/it/" + namespace)
                .option("s3.bucket", bucket)
                .option("s3.endpoint", endpoint.toString())
                .option("s3.region", fixture.region())
                .option("s3.path-style-access", String.valueOf(fixture.pathStyleAccess()))
                .option("s3.access-key", fixture.accessKey())
                .option("s3.secret-key", fixture.secretKey());
    }

    private String key(String namespace, long jobId) {
        return "it/" + namespace + "/" + StoreNaming.blobName(jobId);
    }

    @Override
    public byte[] rawRead(String namespace, long jobId) {
        return raw.getObjectAsBytes(b -> b.bucket(bucket).key(key(namespace, jobId))).asByteArray();
    }

    @Override
    public void rawWrite(String namespace, long jobId, byte[] bytes) {
        raw.putObject(b -> b.bucket(bucket).key(key(namespace, jobId)), RequestBody.fromBytes(bytes));
    }

    @Override
    public void rawDelete(String namespace, long jobId) {
        raw.deleteObject(b -> b.bucket(bucket).key(key(namespace, jobId)));
    }

    @Override
    public InetSocketAddress faultableServer() {
        URI e = fixture.endpoint();
        return new InetSocketAddress(e.getHost(), e.getPort());
    }

    @Override
    public JobInfoStorageConfig configThrough(String namespace, InetSocketAddress proxy, int deadlineMillis) {
        URI e = fixture.endpoint();
        URI through = URI.create(e.getScheme() + "://" + proxy.getHostString() + ":" + proxy.getPort());
        int attempt = Math.max(500, deadlineMillis / 3);
        return builder(namespace, through)
                .option("s3.call-timeout", deadlineMillis + "ms")
                .option("s3.connection-timeout", attempt + "ms")
                .option("s3.socket-timeout", attempt + "ms")
                .option("s3.retry.max-attempts", "3")
                .option("s3.retry.base-delay", "100ms")
                .option("s3.retry.max-delay", "500ms")
                .build();
    }

    @Override
    public String toString() {
        return name() + " (" + fixture.kind() + ")";
    }
}
