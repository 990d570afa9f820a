package io.jobinfo.store.s3;

import io.jobinfo.store.s3.S3StoreSettings.ChecksumMode;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The two SDK clients of one store, sharing one HTTP connection pool: {@link #writes} with the SDK's standard retry
 * strategy, {@link #reads} with {@link StaleConnectionRetryStrategy} on top (reads may be repeated freely). Both are
 * built for one resolved {@link ChecksumMode} (never {@code AUTO}). {@link #close()} closes both clients, then the
 * pool.
 */
final class S3Clients implements AutoCloseable {

    final S3Client writes;
    final S3Client reads;
    final ChecksumMode checksumMode;
    /** Closed here, after both clients; {@code null} when the clients own their HTTP client. */
    private final SdkHttpClient http;

    S3Clients(S3Client writes, S3Client reads, SdkHttpClient http, ChecksumMode checksumMode) {
        if (checksumMode == ChecksumMode.AUTO) {
            throw new IllegalArgumentException("the clients are built for a resolved checksum mode, not auto");
        }
        this.writes = writes;
        this.reads = reads;
        this.http = http;
        this.checksumMode = checksumMode;
    }

    /** One client for everything (tests that count its requests). */
    static S3Clients single(S3Client client, ChecksumMode checksumMode) {
        return new S3Clients(client, client, null, checksumMode);
    }

    /** Whether write requests name the SDK's CRC32C checksum. */
    boolean sdkChecksums() {
        return checksumMode == ChecksumMode.CRC32C;
    }

    @Override
    public void close() {
        try {
            writes.close();
        } finally {
            try {
                if (reads != writes) {
                    reads.close();
                }
            } finally {
                if (http != null) {
                    http.close();
                }
            }
        }
    }
}
