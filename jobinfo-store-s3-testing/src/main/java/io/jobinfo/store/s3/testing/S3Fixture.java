package io.jobinfo.store.s3.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One S3 endpoint per JVM for every test that needs S3, started on first use and shared (static). In order of
 * preference:
 * <ol>
 *   <li>{@link Kind#EXTERNAL}: the endpoint given by {@code -Djobinfo.s3.endpoint=...}, with
 *   {@code -Djobinfo.s3.access-key}, {@code -Djobinfo.s3.secret-key}, {@code -Djobinfo.s3.region} (default
 *   {@code us-east-1}) and {@code -Djobinfo.s3.path-style-access} (default {@code true});</li>
 *   <li>{@link Kind#MINIO}: MinIO through Testcontainers, when a Docker engine answers;</li>
 *   <li>{@link Kind#S3PROXY}: S3Proxy 4.1.0 in this JVM on 127.0.0.1 and a random port, on its {@code filesystem}
 *   blob store in a temporary directory (deleted at JVM exit). That blob store honours {@code If-None-Match: *} on
 *   PutObject and CompleteMultipartUpload, which {@code S3FixtureTest} checks.</li>
 * </ol>
 * Which one runs is logged once at WARN ({@code S3 fixture: ...}) and available from {@link #kind()}.
 *
 * <p>Besides that shared endpoint, {@link #rgw()} gives a {@link Kind#RGW} fixture: Ceph's RADOS Gateway
 * ({@link RgwServer}), started when the Ceph packages are installed; without them it skips the caller, naming what
 * is missing. Its raw clients ({@link #newClient()}) send no SDK trailing checksum, which RGW 16 refuses.
 *
 * <p>Tests get a fresh bucket from {@link #createBucket(String)} rather than sharing one. Users depend on
 * {@code jobinfo-store-s3-testing} at test scope, and on {@code org.testcontainers:minio} too for MinIO (optional
 * here). For JUnit 5 parameter injection use {@link S3FixtureExtension}.
 *
 * <p>Failure behaviour: if no endpoint can be started, {@link #shared()} throws {@link IllegalStateException} naming
 * the cause, and every later call throws it again (the start is not retried).
 */
public final class S3Fixture {

    /** Which kind of server the fixture runs. */
    public enum Kind { EXTERNAL, MINIO, S3PROXY, RGW }

    public static final String PROP_ENDPOINT = "jobinfo.s3.endpoint";
    public static final String PROP_ACCESS_KEY = "jobinfo.s3.access-key";
    public static final String PROP_SECRET_KEY = "jobinfo.s3.secret-key";
    public static final String PROP_REGION = "jobinfo.s3.region";
    public static final String PROP_PATH_STYLE = "jobinfo.s3.path-style-access";

    private static final Logger LOG = LoggerFactory.getLogger(S3Fixture.class);
    private static final String MINIO_IMAGE = "minio/minio:RELEASE.2025-04-22T22-12-26Z";
    private static final AtomicInteger BUCKETS = new AtomicInteger();

    private static S3Fixture shared;
    private static RuntimeException startFailure;
    private static S3Fixture rgw;

    private final Kind kind;
    private final URI endpoint;
    private final String region;
    private final String accessKey;
    private final String secretKey;
    private final boolean pathStyle;

    private S3Fixture(Kind kind, URI endpoint, String region, String accessKey, String secretKey, boolean pathStyle) {
        this.kind = kind;
        this.endpoint = endpoint;
        this.region = region;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.pathStyle = pathStyle;
    }

    /** The endpoint of this JVM, started on the first call. */
    public static synchronized S3Fixture shared() {
        if (shared != null) {
            return shared;
        }
        if (startFailure != null) {
            throw startFailure;
        }
        try {
            shared = start();
        } catch (Exception e) {
            startFailure = new IllegalStateException("No S3 endpoint for the tests could be started: " + e, e);
            throw startFailure;
        }
        LOG.warn("S3 fixture: {} at {} (region {})", shared.kind, shared.endpoint, shared.region);
        return shared;
    }

    /**
     * Ceph RGW ({@link RgwServer#shared()}), started on the first call; skips the calling test or class (JUnit
     * assumption) when Ceph is not installed.
     */
    public static synchronized S3Fixture rgw() {
        if (rgw == null) {
            String reason = RgwServer.unavailable();
            org.junit.jupiter.api.Assumptions.assumeTrue(reason == null, reason);
            RgwServer server = RgwServer.shared();
            rgw = new S3Fixture(Kind.RGW, server.endpoint(), "us-east-1", server.accessKey(), server.secretKey(),
                    true);
        }
        return rgw;
    }

    private static S3Fixture start() throws Exception {
        String external = System.getProperty(PROP_ENDPOINT);
        if (external != null && !external.isBlank()) {
            String access = System.getProperty(PROP_ACCESS_KEY);
            String secret = System.getProperty(PROP_SECRET_KEY);
            if (access == null || secret == null) {
                throw new IllegalStateException("-D" + PROP_ENDPOINT + " is set: also set -D" + PROP_ACCESS_KEY
                        + " and -D" + PROP_SECRET_KEY);
            }
            return new S3Fixture(Kind.EXTERNAL, URI.create(external.trim()),
                    System.getProperty(PROP_REGION, "us-east-1"), access, secret,
                    Boolean.parseBoolean(System.getProperty(PROP_PATH_STYLE, "true")));
        }
        if (dockerAvailable()) {
            return MinioHolder.start();
        }
        return S3ProxyHolder.start();
    }

    private static boolean dockerAvailable() {
        try {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }

    public Kind kind() {
        return kind;
    }

    /** The S3 endpoint, for example {@code http://127.0.0.1:43817}. */
    public URI endpoint() {
        return endpoint;
    }

    public String region() {
        return region;
    }

    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    /** Whether clients must use path-style addressing (always for the local servers). */
    public boolean pathStyleAccess() {
        return pathStyle;
    }

    /** A new client for this endpoint (the caller closes it). */
    public S3Client newClient() {
        return newClient(o -> { });
    }

    /**
     * A new client for this endpoint with {@code overrides} applied to its configuration (an execution interceptor
     * that counts requests, for example); the caller closes it.
     */
    public S3Client newClient(java.util.function.Consumer<ClientOverrideConfiguration.Builder> overrides) {
        return S3Clients.client(endpoint, region, pathStyle, accessKey, secretKey, kind == Kind.RGW, overrides);
    }

    /**
     * Creates a new, empty bucket whose name starts with {@code namePrefix} (lower-cased, cut to fit the 63
     * character limit) and returns its name.
     */
    public String createBucket(String namePrefix) {
        String clean = namePrefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        String suffix = "-" + BUCKETS.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
        String name = (clean.length() > 40 ? clean.substring(0, 40) : clean) + suffix;
        if (!Character.isLetterOrDigit(name.charAt(0))) {
            name = "b" + name;
        }
        String bucket = name;
        try (S3Client s3 = newClient()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
        return bucket;
    }

    /** A fresh bucket named {@code jobinfo-test-...}. */
    public String createBucket() {
        return createBucket("jobinfo-test");
    }

    @Override
    public String toString() {
        // never the secret
        return "S3Fixture{" + kind + ", " + endpoint + ", region=" + region + '}';
    }

    /** Kept in its own class so that Testcontainers' MinIO module is only loaded when used. */
    private static final class MinioHolder {
        static S3Fixture start() {
            org.testcontainers.containers.MinIOContainer minio =
                    new org.testcontainers.containers.MinIOContainer(MINIO_IMAGE);
            minio.start();
            Runtime.getRuntime().addShutdownHook(new Thread(minio::stop, "minio-fixture-stop"));
            return new S3Fixture(Kind.MINIO, URI.create(minio.getS3URL()), "us-east-1", minio.getUserName(),
                    minio.getPassword(), true);
        }
    }

    /** S3Proxy in this JVM; its classes are only loaded when used. */
    private static final class S3ProxyHolder {
        static S3Fixture start() throws Exception {
            Path dir = Files.createTempDirectory("s3proxy-fixture-");
            String access = "fixture-access-" + UUID.randomUUID().toString().substring(0, 8);
            String secret = "fixture-secret-" + UUID.randomUUID();
            Properties props = new Properties();
            props.setProperty("jclouds.filesystem.basedir", dir.toString());
            org.gaul.s3proxy.blobstore.BlobStore blobStore = org.gaul.s3proxy.BlobStores.create("filesystem", props);
            org.gaul.s3proxy.S3Proxy proxy = org.gaul.s3proxy.S3Proxy.builder()
                    .blobStore(blobStore)
                    .endpoint(URI.create("http://127.0.0.1:0"))
                    .awsAuthentication(org.gaul.s3proxy.auth.AuthenticationType.AWS_V2_OR_V4, access, secret)
                    .stopTimeout(0)
                    .build();
            proxy.start();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!"STARTED".equals(proxy.getState())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("S3Proxy did not start within 30 s (state " + proxy.getState()
                            + ")");
                }
                Thread.sleep(10);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    proxy.stop();
                } catch (Exception ignored) {
                    // JVM is exiting
                }
                deleteTree(dir);
            }, "s3proxy-fixture-stop"));
            return new S3Fixture(Kind.S3PROXY, URI.create("http://127.0.0.1:" + proxy.getPort()), "us-east-1",
                    access, secret, true);
        }

        private static void deleteTree(Path dir) {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // best effort at JVM exit
            }
        }
    }
}
