package io.jobinfo.store.s3;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.S3StoreSettings.ChecksumMode;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStoreFactory;
import io.jobinfo.store.spi.OptionDescriptions;
import io.jobinfo.store.spi.StoreNaming;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Type {@code s3}: the native AWS SDK v2 backend for AWS S3, MinIO and other S3-compatible stores. The namespace is
 * the key prefix inside {@code s3.bucket} ({@code /seatunnel/jobinfo} stores {@code seatunnel/jobinfo/<id>.jobinfo}).
 *
 * <p>{@link #create} checks at start-up ({@link StartupProbe}), in this order, and fails with a
 * {@link JobInfoStoreException} saying what to fix: that a region is known, that the bucket is reachable with the
 * given credentials ({@code HeadBucket}: wrong endpoint, unknown bucket, wrong credentials or region), which request
 * checksum mode the server accepts ({@code s3.request-checksum}; {@code auto} tries {@code crc32c},
 * {@code when-required}, {@code unchunked}), that objects can be written and deleted under the prefix, and how the
 * server treats {@code If-None-Match: *}: sequentially first (a second conditional PutObject and a conditional
 * CompleteMultipartUpload over an existing key must both be refused with 412), then with racing writers
 * ({@link ConditionalWriteRaceProbe}). A server that honours the condition on PutObject but not on
 * CompleteMultipartUpload gets every blob as one conditional PutObject; one that does not honour it on PutObject is
 * refused unless {@code s3.allow-unconditional-writes=true}. The verdicts are logged in one INFO line when the store
 * opens. Credentials never appear in messages or logs.
 */
public final class S3JobInfoStoreFactory implements JobInfoStoreFactory {

    /**
     * Connections of the store's HTTP pool: twice the restore's default loaders
     * ({@link S3JobInfoStore#SUGGESTED_READ_PARALLELISM}), so that a restore never waits for a connection while
     * submits and reads of other threads go on.
     */
    static final int MAX_CONNECTIONS = 64;


    public static final String IDENTIFIER = "s3";

    private static final Logger LOG = LoggerFactory.getLogger(S3JobInfoStoreFactory.class);

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public Map<String, String> describeOptions() {
        Map<String, Object> defaults = new HashMap<>();
        defaults.put("DEFAULT_MAX_ATTEMPTS", S3StoreSettings.DEFAULT_MAX_ATTEMPTS);
        defaults.put("DEFAULT_PROBE_RACE_ROUNDS", S3StoreSettings.DEFAULT_PROBE_RACE_ROUNDS);
        defaults.put("WRITERS", ConditionalWriteRaceProbe.WRITERS);
        return OptionDescriptions.load(S3JobInfoStoreFactory.class, "options.txt", defaults);
    }

    @Override
    public List<String> validate(JobInfoStorageConfig config) {
        List<String> problems = S3StoreSettings.newProblems();
        S3StoreSettings.parse(config, problems);
        return problems;
    }

    @Override
    public JobInfoStore create(JobInfoStorageConfig config) throws JobInfoStoreException {
        List<String> problems = S3StoreSettings.newProblems();
        S3StoreSettings settings = S3StoreSettings.parse(config, problems);
        if (settings == null) {
            throw new InvalidConfigurationException(problems);
        }
        Location base = S3JobInfoStore.locationOfKey(settings.bucket, settings.prefix);
        StartupProbe probe = new StartupProbe(settings, base);
        S3Clients clients = probe.run();
        try {
            String storeId = config.storeId() != null ? config.storeId()
                    : StoreNaming.deriveStoreId("s3://" + settings.bucket + "/" + settings.prefix);
            S3JobInfoStore store = new S3JobInfoStore(clients, settings, storeId, probe.writeMode());
            // the start-up verdicts, in one line
            LOG.info("S3 job info store open: {} via {}; request checksums: {}; conditional writes: {}", base,
                    settings.describeEndpoint(), probe.checksumVerdict(), probe.writeVerdict());
            return store;
        } catch (RuntimeException e) {
            clients.close();
            throw e;
        }
    }

    /** The SDK's standard retry strategy as {@code s3.retry.*} configures it. */
    static RetryStrategy standardRetry(S3StoreSettings settings) {
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(settings.maxAttempts)
                .backoffStrategy(BackoffStrategy.exponentialDelay(settings.baseDelay, settings.maxDelay))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(settings.baseDelay.multipliedBy(2),
                        settings.maxDelay))
                // AWS answers 409 ConditionalRequestConflict while another conditional write of the key is in
                // flight, and documents that the request should be retried (the retry then gets 412 or succeeds).
                .retryOnException(S3JobInfoStoreFactory::isConditionalRequestConflict)
                .build();
    }

    /**
     * The store's client for request checksum mode {@code mode} (not {@code auto}) and its connection pool, with the
     * standard retries and retries of dead pooled connections ({@link StaleConnectionRetryStrategy}).
     */
    static S3Clients newClients(S3StoreSettings settings, Location base, ChecksumMode mode)
            throws JobInfoStoreException {
        Region region;
        if (settings.region != null) {
            region = Region.of(settings.region);
        } else if (settings.endpoint != null) {
            region = Region.US_EAST_1;
        } else {
            try {
                region = DefaultAwsRegionProviderChain.builder().build().getRegion();
            } catch (SdkClientException e) {
                throw new JobInfoStoreException("No AWS region is configured: set " + S3StoreSettings.P
                        + S3StoreSettings.REGION + " to the bucket's region (or AWS_REGION)", null, base, e);
            }
        }
        AwsCredentialsProvider credentials;
        if (settings.staticCredentials()) {
            credentials = StaticCredentialsProvider.create(settings.sessionToken != null
                    ? AwsSessionCredentials.create(settings.accessKey, settings.secretKey, settings.sessionToken)
                    : AwsBasicCredentials.create(settings.accessKey, settings.secretKey));
        } else {
            credentials = DefaultCredentialsProvider.builder().build();
        }
        SdkHttpClient http = ApacheHttpClient.builder()
                .maxConnections(MAX_CONNECTIONS) // every restore loader gets a connection of its own
                .connectionTimeout(settings.connectionTimeout)
                .socketTimeout(settings.socketTimeout)
                .build();
        try {
            RetryStrategy retry = new StaleConnectionRetryStrategy(standardRetry(settings), MAX_CONNECTIONS);
            S3Client s3 = clientBuilder(settings, region, credentials, http, mode)
                    .overrideConfiguration(o -> o.retryStrategy(retry).apiCallTimeout(settings.callTimeout))
                    .build();
            return new S3Clients(s3, http, mode);
        } catch (RuntimeException e) {
            http.close();
            throw e;
        }
    }

    private static S3ClientBuilder clientBuilder(S3StoreSettings settings, Region region,
                                                 AwsCredentialsProvider credentials, SdkHttpClient http,
                                                 ChecksumMode mode) {
        boolean sdkChecksums = mode == ChecksumMode.CRC32C;
        S3ClientBuilder builder = S3Client.builder()
                .region(region)
                .credentialsProvider(credentials)
                .forcePathStyle(settings.pathStyle)
                .httpClient(http)
                // WHEN_REQUIRED: no checksum unless an operation requires one; the store names none then. This
                // also overrides AWS_REQUEST_CHECKSUM_CALCULATION / AWS_RESPONSE_CHECKSUM_VALIDATION.
                .requestChecksumCalculation(sdkChecksums ? RequestChecksumCalculation.WHEN_SUPPORTED
                        : RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(sdkChecksums ? ResponseChecksumValidation.WHEN_SUPPORTED
                        : ResponseChecksumValidation.WHEN_REQUIRED);
        if (mode == ChecksumMode.UNCHUNKED) {
            builder.serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build());
        }
        if (settings.endpoint != null) {
            builder.endpointOverride(settings.endpoint);
        }
        return builder;
    }

    private static boolean isConditionalRequestConflict(Throwable t) {
        if (!(t instanceof S3Exception)) {
            return false;
        }
        S3Exception s = (S3Exception) t;
        return s.statusCode() == 409 && "ConditionalRequestConflict".equals(S3Errors.errorCode(s));
    }

    static void headBucket(S3Client s3, S3StoreSettings settings, Location base) throws JobInfoStoreException {
        try {
            s3.headBucket(h -> h.bucket(settings.bucket));
        } catch (S3Exception e) {
            throw new JobInfoStoreException(headBucketFailure(s3, settings, e), null, base, e);
        } catch (SdkClientException e) {
            throw new JobInfoStoreException(startupClientFailure(e, settings), null, base, e);
        } catch (SdkException e) {
            throw new JobInfoStoreException("Cannot reach bucket " + settings.bucket + " at "
                    + settings.describeEndpoint() + ": " + S3Errors.describe(e)
                    + S3Errors.hint(e, settings), null, base, e);
        }
    }

    private static String headBucketFailure(S3Client s3, S3StoreSettings settings, S3Exception e) {
        switch (e.statusCode()) {
            case 404:
                return "Bucket " + settings.bucket + " does not exist at " + settings.describeEndpoint()
                        + ": create it, or fix " + S3StoreSettings.P + S3StoreSettings.BUCKET
                        + (settings.endpoint == null ? "" : " or " + S3StoreSettings.P + S3StoreSettings.ENDPOINT);
            case 403:
                return "Access to bucket " + settings.bucket + " at " + settings.describeEndpoint() + " was"
                        + " denied (HTTP 403): check the credentials (" + S3StoreSettings.P
                        + S3StoreSettings.ACCESS_KEY + "/" + S3StoreSettings.SECRET_KEY + " or the AWS default"
                        + " credential chain) and that they may list the bucket";
            case 400:
                return "Bucket " + settings.bucket + " at " + settings.describeEndpoint() + " refused the"
                        + " request (HTTP 400), usually a wrong region or bad credentials: check "
                        + S3StoreSettings.P + S3StoreSettings.REGION + " and the credentials";
            case 301:
                return "Bucket " + settings.bucket + " is in another region than "
                        + s3.serviceClientConfiguration().region() + ": set " + S3StoreSettings.P
                        + S3StoreSettings.REGION + " to the bucket's region";
            default:
                return "Bucket " + settings.bucket + " at " + settings.describeEndpoint() + " cannot be used: "
                        + S3Errors.describe(e) + S3Errors.hint(e, settings);
        }
    }

    static String startupClientFailure(SdkClientException e, S3StoreSettings settings) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("Unable to load credentials")) {
            return "No S3 credentials found: set " + S3StoreSettings.P + S3StoreSettings.ACCESS_KEY + " and "
                    + S3StoreSettings.SECRET_KEY + ", or configure the AWS default credential chain (environment"
                    + " AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, or an instance or container role)";
        }
        return "Cannot reach the S3 endpoint " + settings.describeEndpoint() + " for bucket " + settings.bucket
                + " (" + message + ")" + S3Errors.hint(e, settings);
    }

}
