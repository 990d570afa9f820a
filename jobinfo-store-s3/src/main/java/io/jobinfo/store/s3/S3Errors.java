package io.jobinfo.store.s3;

import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What an S3 failure means and what to tell the operator about it: not found, the SDK's own description, and a hint
 * naming the setting to check. Never a credential: a hint names the settings that hold them, not their values.
 */
final class S3Errors {

    private S3Errors() {
    }

    /** Whether {@code e} says that the key or the upload does not exist (HTTP 404). */
    static boolean isNotFound(SdkException e) {
        return e instanceof NoSuchKeyException || e instanceof NoSuchUploadException
                || e instanceof S3Exception && ((S3Exception) e).statusCode() == 404;
    }

    /** The SDK's own description: status, error code and request id for service errors, the cause otherwise. */
    static String describe(SdkException e) {
        if (e instanceof S3Exception) {
            S3Exception s = (S3Exception) e;
            if (s.awsErrorDetails() != null) {
                return "HTTP " + s.statusCode() + " " + s.awsErrorDetails().errorCode() + " ("
                        + s.awsErrorDetails().errorMessage() + ", request id " + s.requestId() + ")";
            }
            return "HTTP " + s.statusCode() + " (request id " + s.requestId() + ")";
        }
        return e.getMessage();
    }

    static String hint(SdkException e, S3StoreSettings settings) {
        return hint(e, settings, settings.checksumMode);
    }

    /** {@code mode}: the request checksum mode the failed request was sent in. */
    static String hint(SdkException e, S3StoreSettings settings, S3StoreSettings.ChecksumMode mode) {
        String endpoint = settings.describeEndpoint();
        if (e instanceof S3Exception) {
            S3Exception s = (S3Exception) e;
            int status = s.statusCode();
            if (refusesRequestBody(s)) {
                return "; " + endpoint + " refused the request body as the AWS SDK sent it (" + S3StoreSettings.P
                        + S3StoreSettings.REQUEST_CHECKSUM + "=" + mode + "): " + requestBodyAdvice(mode);
            }
            if (status == 403) {
                return "; access denied by " + endpoint + ": check the credentials (" + S3StoreSettings.ACCESS_KEY
                        + "/" + S3StoreSettings.SECRET_KEY + " or the AWS default credential chain) and that they"
                        + " may read, write, list and delete in bucket " + settings.bucket;
            }
            if (status == 301 || "AuthorizationHeaderMalformed".equals(errorCode(s))) {
                return "; bucket " + settings.bucket + " is in another region: set " + S3StoreSettings.REGION
                        + " to the bucket's region";
            }
            if (status == 501) {
                return "; " + endpoint + " does not implement this request" + (settings.sse != S3StoreSettings.Sse.NONE
                        ? " (it may not support server-side encryption: check " + S3StoreSettings.SSE + ")" : "");
            }
            if (status == 503 || status == 429 || status >= 500) {
                return "; " + endpoint + " is overloaded or failing and the retry budget ("
                        + S3StoreSettings.RETRY_MAX_ATTEMPTS + "=" + settings.maxAttempts + ") is spent: retry"
                        + " later, or raise the retry budget";
            }
            return "";
        }
        if (e instanceof ApiCallTimeoutException) {
            return "; no answer from " + endpoint + " within " + S3StoreSettings.CALL_TIMEOUT + "="
                    + settings.callTimeout + ": check that the endpoint is reachable, or raise the timeout";
        }
        if (e instanceof SdkClientException) {
            return "; cannot talk to " + endpoint + " (after " + settings.maxAttempts + " attempts): check "
                    + S3StoreSettings.ENDPOINT + ", the network and that the server is up";
        }
        return "";
    }

    /** The S3 error code of {@code s} ({@code NoSuchKey}, {@code XAmzContentSHA256Mismatch}, ...), or null. */
    static String errorCode(S3Exception s) {
        return s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
    }

    /**
     * Whether the server refused how the request body was encoded or checked (not the request itself): Ceph RGW 16
     * answers the SDK's trailing checksums with {@code 400 XAmzContentSHA256Mismatch}; other servers say
     * {@code InvalidDigest}, {@code BadDigest}, {@code 411 MissingContentLength}, or a 400/501 about the checksum,
     * the chunked encoding or the content SHA-256.
     */
    static boolean refusesRequestBody(S3Exception s) {
        String code = errorCode(s);
        if ("XAmzContentSHA256Mismatch".equals(code) || "InvalidDigest".equals(code) || "BadDigest".equals(code)
                || "MissingContentLength".equals(code) || "InvalidChunkSizeError".equals(code)
                || s.statusCode() == 411) {
            return true;
        }
        if (s.statusCode() != 400 && s.statusCode() != 501) {
            return false;
        }
        String message = s.awsErrorDetails() == null || s.awsErrorDetails().errorMessage() == null ? ""
                : s.awsErrorDetails().errorMessage().toLowerCase(java.util.Locale.ROOT);
        return message.contains("sha256") || message.contains("checksum") || message.contains("trailer")
                || message.contains("chunk") || message.contains("transfer-encoding")
                || message.contains("content-encoding") || message.contains("decoded-content-length");
    }

    /** What to set after the server refused a request body sent in {@code mode}. */
    static String requestBodyAdvice(S3StoreSettings.ChecksumMode mode) {
        String key = S3StoreSettings.P + S3StoreSettings.REQUEST_CHECKSUM;
        switch (mode) {
            case CRC32C:
                return "servers that predate the SDK's trailing checksums (Ceph RGW 16, several appliances) need "
                        + key + "=when-required, or " + key + "=auto to let the start-up probe choose (the blob"
                        + " envelope's own CRC32C and SHA-256 still guard every byte)";
            case WHEN_REQUIRED:
                return "a server that does not accept aws-chunked bodies needs " + key + "=unchunked, or " + key
                        + "=auto to let the start-up probe choose";
            case UNCHUNKED:
                return "it refuses even a plainly signed body: check the endpoint and any proxy in front of it";
            default:
                return "the start-up probe tried crc32c, when-required and unchunked and the server refused"
                        + " each; check the endpoint and any proxy in front of it";
        }
    }
}
