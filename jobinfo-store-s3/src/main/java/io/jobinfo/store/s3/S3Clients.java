package io.jobinfo.store.s3;

import io.jobinfo.store.s3.S3StoreSettings.ChecksumMode;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The SDK client of one store and its HTTP connection pool: the client's retries are the SDK's standard strategy with
 * {@link StaleConnectionRetryStrategy} on top, for reads and writes alike (why writes may be repeated too: see
 * there). Built for one resolved {@link ChecksumMode} (never {@code AUTO}). {@link #close()} closes the client, then
 * the pool.
 */
final class S3Clients implements AutoCloseable {

    final S3Client s3;
    final ChecksumMode checksumMode;
    /** Closed here, after the client; {@code null} when the client owns its HTTP client. */
    private final SdkHttpClient http;

    S3Clients(S3Client s3, SdkHttpClient http, ChecksumMode checksumMode) {
        if (checksumMode == ChecksumMode.AUTO) {
            throw new IllegalArgumentException("the clients are built for a resolved checksum mode, not auto");
        }
        this.s3 = s3;
        this.http = http;
        this.checksumMode = checksumMode;
    }

    /** A client built elsewhere (tests that count its requests). */
    static S3Clients single(S3Client client, ChecksumMode checksumMode) {
        return new S3Clients(client, null, checksumMode);
    }

    /** Whether write requests name the SDK's CRC32C checksum. */
    boolean sdkChecksums() {
        return checksumMode == ChecksumMode.CRC32C;
    }

    @Override
    public void close() {
        try {
            s3.close();
        } finally {
            if (http != null) {
                http.close();
            }
        }
    }
}
