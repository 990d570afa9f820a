package io.jobinfo.store.s3;

import io.jobinfo.store.config.ByteSize;
import io.jobinfo.store.config.Durations;
import io.jobinfo.store.config.JobInfoStorageConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The parsed {@code s3.*} plugin options of one store. {@link #parse} never throws for bad input: it adds one
 * message per problem (naming the key and what to do, never a credential's value) and returns {@code null} if there
 * were any.
 */
final class S3StoreSettings {

    static final String P = "jobinfo-storage.plugin-config.";

    static final String BUCKET = "s3.bucket";
    static final String REGION = "s3.region";
    static final String ENDPOINT = "s3.endpoint";
    static final String PATH_STYLE = "s3.path-style-access";
    static final String ACCESS_KEY = "s3.access-key";
    static final String SECRET_KEY = "s3.secret-key";
    static final String SESSION_TOKEN = "s3.session-token";
    static final String RETRY_MAX_ATTEMPTS = "s3.retry.max-attempts";
    static final String RETRY_BASE_DELAY = "s3.retry.base-delay";
    static final String RETRY_MAX_DELAY = "s3.retry.max-delay";
    static final String CONNECTION_TIMEOUT = "s3.connection-timeout";
    static final String SOCKET_TIMEOUT = "s3.socket-timeout";
    static final String CALL_TIMEOUT = "s3.call-timeout";
    static final String SSE = "s3.sse";
    static final String SSE_KMS_KEY_ID = "s3.sse-kms-key-id";
    static final String MULTIPART_THRESHOLD = "s3.multipart.threshold";
    static final String MULTIPART_PART_SIZE = "s3.multipart.part-size";
    static final String ALLOW_UNCONDITIONAL_WRITES = "s3.allow-unconditional-writes";
    static final String PROBE_RACE_ROUNDS = "s3.probe.race-rounds";
    static final String REQUEST_CHECKSUM = "s3.request-checksum";

    static final int DEFAULT_MAX_ATTEMPTS = 5;
    static final int DEFAULT_PROBE_RACE_ROUNDS = 3;
    static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(100);
    static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(10);
    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(30);
    static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofMinutes(2);
    static final long DEFAULT_MULTIPART_THRESHOLD = 16L << 20;
    static final long DEFAULT_PART_SIZE = 8L << 20;
    static final long MIN_PART_SIZE = 5L << 20;
    static final long MAX_PART_SIZE = 5L << 30;
    static final long MAX_OBJECT_SIZE = 5L << 40;

    /** Current AWS bucket naming rules (also what MinIO enforces). */
    private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern IP_LIKE = Pattern.compile("\\d+\\.\\d+\\.\\d+\\.\\d+");
    private static final Pattern REGION_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    enum Sse { NONE, S3, KMS }

    /**
     * How write requests carry their body and its integrity check
     * ({@value S3StoreSettings#REQUEST_CHECKSUM}). Every mode is safe for the blobs: each envelope carries its own
     * CRC32C and SHA-256, verified on every read, so a mode without the SDK's checksum loses no protection of the
     * stored bytes.
     */
    enum ChecksumMode {
        /** The start-up probe tries {@link #CRC32C}, {@link #WHEN_REQUIRED} and {@link #UNCHUNKED}, in that order. */
        AUTO("auto"),
        /**
         * The AWS SDK's default: a CRC32C the SDK computes while sending, as the trailer of an {@code aws-chunked}
         * body ({@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER}, over https
         * {@code STREAMING-UNSIGNED-PAYLOAD-TRAILER}); the server checks it. Responses with a checksum are checked.
         */
        CRC32C("crc32c"),
        /**
         * No SDK checksum ({@code RequestChecksumCalculation.WHEN_REQUIRED}, no algorithm named; response checksums
         * only where required): over http the body is sent as SigV4-signed chunks
         * ({@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD}), over https as {@code UNSIGNED-PAYLOAD}. For servers that
         * predate trailing checksums (Ceph RGW 16).
         */
        WHEN_REQUIRED("when-required"),
        /**
         * Like {@link #WHEN_REQUIRED}, and no {@code aws-chunked} encoding either: over http the body is signed by
         * its SHA-256 in {@code x-amz-content-sha256} (the SDK reads it twice), over https it is
         * {@code UNSIGNED-PAYLOAD}. For servers or proxies that do not understand {@code aws-chunked} bodies.
         */
        UNCHUNKED("unchunked");

        final String value;

        ChecksumMode(String value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return value;
        }
    }

    String bucket;
    String region;
    URI endpoint;
    boolean pathStyle;
    String accessKey;
    String secretKey;
    String sessionToken;
    int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    Duration baseDelay = DEFAULT_BASE_DELAY;
    Duration maxDelay = DEFAULT_MAX_DELAY;
    Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
    Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
    Duration callTimeout = DEFAULT_CALL_TIMEOUT;
    Sse sse = Sse.NONE;
    String sseKmsKeyId;
    long multipartThreshold = DEFAULT_MULTIPART_THRESHOLD;
    long partSize = DEFAULT_PART_SIZE;
    boolean allowUnconditionalWrites;
    int probeRaceRounds = DEFAULT_PROBE_RACE_ROUNDS;
    ChecksumMode checksumMode = ChecksumMode.AUTO;
    /** The key prefix: empty, or ends with '/'. */
    String prefix;

    private S3StoreSettings() {
    }

    /** Parses {@code config}; returns {@code null} after adding to {@code problems} if anything is wrong. */
    static S3StoreSettings parse(JobInfoStorageConfig config, List<String> problems) {
        int before = problems.size();
        S3StoreSettings s = new S3StoreSettings();

        s.prefix = keyPrefix(config.namespace());
        if (s.prefix.getBytes(StandardCharsets.UTF_8).length > 900) {
            problems.add("jobinfo-storage.namespace: longer than 900 bytes in UTF-8; S3 keys are limited to 1024"
                    + " bytes, use a shorter key prefix");
        }

        String bucket = trimmed(config.option(BUCKET));
        if (bucket == null) {
            problems.add(P + BUCKET + ": missing; set the name of an existing bucket that holds the blobs");
        } else if (!BUCKET_NAME.matcher(bucket).matches() || IP_LIKE.matcher(bucket).matches()
                || bucket.contains("..")) {
            problems.add(P + BUCKET + ": '" + bucket + "' is not a valid bucket name; use 3 to 63 lower-case"
                    + " letters, digits, '.' and '-', starting and ending with a letter or digit (no IP address)");
        } else {
            s.bucket = bucket;
        }

        String region = trimmed(config.option(REGION));
        if (region != null && !REGION_NAME.matcher(region).matches()) {
            problems.add(P + REGION + ": '" + region + "' is not a region name; write it like us-east-1");
        } else {
            s.region = region;
        }

        String endpoint = trimmed(config.option(ENDPOINT));
        if (endpoint != null) {
            s.endpoint = endpoint(endpoint, problems);
        }
        s.pathStyle = bool(config, PATH_STYLE, endpoint != null, problems);

        String access = config.option(ACCESS_KEY);
        String secret = config.option(SECRET_KEY);
        boolean hasAccess = access != null && !access.trim().isEmpty();
        boolean hasSecret = secret != null && !secret.trim().isEmpty();
        if (hasAccess != hasSecret) {
            problems.add(P + (hasAccess ? SECRET_KEY : ACCESS_KEY) + ": missing while " + (hasAccess ? ACCESS_KEY
                    : SECRET_KEY) + " is set; set both, or neither to use the AWS default credential chain"
                    + " (environment, profile, instance or container role)");
        }
        if (access != null && !hasAccess || secret != null && !hasSecret) {
            problems.add(P + (access != null && !hasAccess ? ACCESS_KEY : SECRET_KEY) + ": empty; remove the key to"
                    + " use the AWS default credential chain, or give a value");
        }
        s.accessKey = hasAccess ? access.trim() : null;
        s.secretKey = hasSecret ? secret.trim() : null;
        String token = config.option(SESSION_TOKEN);
        if (token != null && !token.trim().isEmpty()) {
            if (!hasAccess || !hasSecret) {
                problems.add(P + SESSION_TOKEN + ": only used together with " + ACCESS_KEY + " and " + SECRET_KEY
                        + "; set them too, or remove it");
            }
            s.sessionToken = token.trim();
        }

        s.maxAttempts = wholeNumber(config, RETRY_MAX_ATTEMPTS, s.maxAttempts, 1, 100, "1 (no retry) and 100",
                problems);
        s.baseDelay = duration(config, RETRY_BASE_DELAY, DEFAULT_BASE_DELAY, false, problems);
        s.maxDelay = duration(config, RETRY_MAX_DELAY, DEFAULT_MAX_DELAY, false, problems);
        if (s.baseDelay != null && s.maxDelay != null && s.maxDelay.compareTo(s.baseDelay) < 0) {
            problems.add(P + RETRY_MAX_DELAY + ": " + s.maxDelay + " is below " + RETRY_BASE_DELAY + " "
                    + s.baseDelay + "; raise it");
        }
        s.connectionTimeout = duration(config, CONNECTION_TIMEOUT, DEFAULT_CONNECTION_TIMEOUT, true, problems);
        s.socketTimeout = duration(config, SOCKET_TIMEOUT, DEFAULT_SOCKET_TIMEOUT, true, problems);
        s.callTimeout = duration(config, CALL_TIMEOUT, DEFAULT_CALL_TIMEOUT, true, problems);

        String sse = trimmed(config.option(SSE));
        if (sse != null) {
            switch (sse.toLowerCase(Locale.ROOT)) {
                case "none":
                    s.sse = Sse.NONE;
                    break;
                case "s3":
                case "aes256":
                case "sse-s3":
                    s.sse = Sse.S3;
                    break;
                case "kms":
                case "aws:kms":
                case "sse-kms":
                    s.sse = Sse.KMS;
                    break;
                default:
                    problems.add(P + SSE + ": '" + sse + "' must be none, s3 (SSE-S3) or kms (SSE-KMS)");
            }
        }
        String kmsKey = trimmed(config.option(SSE_KMS_KEY_ID));
        if (kmsKey != null) {
            if (s.sse != Sse.KMS) {
                problems.add(P + SSE_KMS_KEY_ID + ": only used with " + SSE + "=kms; set that too, or remove it");
            }
            s.sseKmsKeyId = kmsKey;
        }

        s.multipartThreshold = size(config, MULTIPART_THRESHOLD, DEFAULT_MULTIPART_THRESHOLD, problems);
        s.partSize = size(config, MULTIPART_PART_SIZE, DEFAULT_PART_SIZE, problems);
        checkPartLimits(MULTIPART_THRESHOLD, s.multipartThreshold, "S3's limits for a single PutObject", problems);
        checkPartLimits(MULTIPART_PART_SIZE, s.partSize, "S3's part size limits", problems);
        s.allowUnconditionalWrites = bool(config, ALLOW_UNCONDITIONAL_WRITES, false, problems);
        s.probeRaceRounds = wholeNumber(config, PROBE_RACE_ROUNDS, s.probeRaceRounds, 1, 100, "1 and 100", problems);

        String checksum = trimmed(config.option(REQUEST_CHECKSUM));
        if (checksum != null) {
            String wanted = checksum.toLowerCase(Locale.ROOT).replace('_', '-');
            s.checksumMode = null;
            for (ChecksumMode m : ChecksumMode.values()) {
                if (m.value.equals(wanted)) {
                    s.checksumMode = m;
                }
            }
            if (s.checksumMode == null) {
                s.checksumMode = ChecksumMode.AUTO;
                problems.add(P + REQUEST_CHECKSUM + ": '" + checksum + "' must be auto (the start-up probe decides),"
                        + " crc32c (the AWS SDK's trailing checksum), when-required (no SDK checksum, for servers"
                        + " such as Ceph RGW 16) or unchunked (no SDK checksum and no aws-chunked bodies)");
            }
        }

        return problems.size() == before ? s : null;
    }

    /**
     * The whole number under {@code key}, or {@code absent} when the key is not set (or, with a problem, not a
     * number). A number outside {@code min..max} is returned with a problem saying it must be between {@code range}.
     */
    private static int wholeNumber(JobInfoStorageConfig config, String key, int absent, int min, int max,
            String range, List<String> problems) {
        String text = trimmed(config.option(key));
        if (text == null) {
            return absent;
        }
        try {
            int value = Integer.parseInt(text);
            if (value < min || value > max) {
                problems.add(P + key + ": " + text + " must be between " + range);
            }
            return value;
        } catch (NumberFormatException e) {
            problems.add(P + key + ": '" + text + "' is not a whole number; write e.g. 5");
            return absent;
        }
    }

    /** A problem when {@code size} (negative: already reported) is outside S3's 5MiB..5GiB, named by {@code limits}. */
    private static void checkPartLimits(String key, long size, String limits, List<String> problems) {
        if (size >= 0 && (size < MIN_PART_SIZE || size > MAX_PART_SIZE)) {
            problems.add(P + key + ": " + ByteSize.format(size) + " must be between 5MiB and 5GiB (" + limits + ")");
        }
    }

    /** {@code /seatunnel/jobinfo} becomes {@code seatunnel/jobinfo/}; empty segments are dropped. */
    static String keyPrefix(String namespace) {
        StringBuilder sb = new StringBuilder();
        for (String segment : namespace.split("/")) {
            if (!segment.isEmpty()) {
                sb.append(segment).append('/');
            }
        }
        return sb.toString();
    }

    /** Whether both access and secret key are given (else the default credential chain is used). */
    boolean staticCredentials() {
        return accessKey != null && secretKey != null;
    }

    /** For messages: the endpoint, or AWS S3 in the region. Never a credential. */
    String describeEndpoint() {
        return endpoint != null ? endpoint.toString() : "AWS S3" + (region != null ? " (region " + region + ")" : "");
    }

    private static URI endpoint(String value, List<String> problems) {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                problems.add(P + ENDPOINT + ": '" + value + "' must be an http:// or https:// URL with a host, such"
                        + " as http://127.0.0.1:9000 or https://s3.eu-west-1.amazonaws.com");
                return null;
            }
            if (uri.getUserInfo() != null) {
                problems.add(P + ENDPOINT + ": must not contain user information; give credentials in " + ACCESS_KEY
                        + " and " + SECRET_KEY);
                return null;
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null
                    || uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")) {
                problems.add(P + ENDPOINT + ": '" + value + "' must not have a path, query or fragment; give only"
                        + " scheme, host and port, and the bucket in " + BUCKET);
                return null;
            }
            return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), null, null, null);
        } catch (URISyntaxException e) {
            problems.add(P + ENDPOINT + ": '" + value + "' is not a URL (" + e.getReason() + "); write it like"
                    + " http://127.0.0.1:9000");
            return null;
        }
    }

    private static boolean bool(JobInfoStorageConfig config, String key, boolean dflt, List<String> problems) {
        String v = trimmed(config.option(key));
        if (v == null) {
            return dflt;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        problems.add(P + key + ": '" + v + "' must be true or false");
        return dflt;
    }

    private static Duration duration(JobInfoStorageConfig config, String key, Duration dflt, boolean positive,
                                     List<String> problems) {
        String v = trimmed(config.option(key));
        if (v == null) {
            return dflt;
        }
        Duration d;
        try {
            d = Durations.parse(v); // the one duration syntax of the YAML and the CLI; never negative
        } catch (IllegalArgumentException e) {
            problems.add(P + key + ": " + e.getMessage());
            return dflt;
        }
        if (positive && d.isZero()) {
            problems.add(P + key + ": '" + v + "' must be positive");
            return dflt;
        }
        return d;
    }

    private static long size(JobInfoStorageConfig config, String key, long dflt, List<String> problems) {
        String v = trimmed(config.option(key));
        if (v == null) {
            return dflt;
        }
        try {
            return ByteSize.parse(v);
        } catch (IllegalArgumentException e) {
            problems.add(P + key + ": " + e.getMessage());
            return -1;
        }
    }

    private static String trimmed(String v) {
        return v == null || v.trim().isEmpty() ? null : v.trim();
    }

    static List<String> newProblems() {
        return new ArrayList<>();
    }
}
