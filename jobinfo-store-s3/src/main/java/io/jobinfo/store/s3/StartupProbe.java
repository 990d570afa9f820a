package io.jobinfo.store.s3;

import io.jobinfo.store.s3.S3JobInfoStore.WriteMode;
import io.jobinfo.store.s3.S3StoreSettings.ChecksumMode;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.location.Location;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * What {@link S3JobInfoStoreFactory#create} finds out about the server before the store opens, on a probe key
 * {@code <prefix>.probe-<uuid>} (not a blob name; removed afterwards, and what cannot be removed is logged at WARN):
 * <ol>
 *   <li>the bucket answers {@code HeadBucket} with these credentials;</li>
 *   <li><b>request checksum mode</b> ({@code s3.request-checksum}): the probe key is written with
 *   {@code If-None-Match: *} in the configured mode; in mode {@code auto} in {@code crc32c} (the SDK's default), and
 *   if the server refuses that request body (HTTP 400, 411, 501, or 403 SignatureDoesNotMatch), in
 *   {@code when-required}, then {@code unchunked}: the first mode the server accepts is used. A refusal in an
 *   explicit mode fails with a message naming the setting;</li>
 *   <li><b>conditional writes, deterministically first</b>: a second conditional PutObject over the existing key,
 *   and a conditional CompleteMultipartUpload over it, must each be answered 412;</li>
 *   <li><b>then racing writers</b> ({@link ConditionalWriteRaceProbe}) for what passed sequentially, unless an
 *   earlier start-up recorded in the bucket that racing writers both won ({@link RaceVerdictRecord}): then the
 *   server is refused as if this race had found it.</li>
 * </ol>
 * Verdict: the condition holds on both, sequentially and racing ({@link WriteMode#CONDITIONAL}); PutObject honours
 * it and CompleteMultipartUpload ignores it outright, sequentially ({@link WriteMode#SINGLE_PUT}: every blob is one
 * conditional PutObject, as on Ceph RGW 16); PutObject does not honour it, or either lets several racing writers
 * win (the server checks, then stores, as moto does: nothing then vouches for its conditional writes): refused unless
 * {@code s3.allow-unconditional-writes=true} ({@link WriteMode#UNCONDITIONAL}, logged at WARN).
 */
final class StartupProbe {

    private static final Logger LOG = LoggerFactory.getLogger(StartupProbe.class);
    private static final List<ChecksumMode> AUTO_ORDER = Collections.unmodifiableList(Arrays.asList(
            ChecksumMode.CRC32C, ChecksumMode.WHEN_REQUIRED, ChecksumMode.UNCHUNKED));

    private final S3StoreSettings settings;
    private final Location base;
    private final List<String> openUploads = new ArrayList<>();
    private S3Clients current;
    private WriteMode writeMode;
    private String checksumVerdict;
    private String writeVerdict;

    StartupProbe(S3StoreSettings settings, Location base) {
        this.settings = settings;
        this.base = base;
    }

    /**
     * Runs the checks.
     *
     * @return the store's clients, built for the chosen request checksum mode (the caller closes them)
     * @throws JobInfoStoreException a check failed; the message says what to fix
     */
    S3Clients run() throws JobInfoStoreException {
        boolean auto = settings.checksumMode == ChecksumMode.AUTO;
        List<ChecksumMode> candidates = auto ? AUTO_ORDER : Collections.singletonList(settings.checksumMode);
        current = S3JobInfoStoreFactory.newClients(settings, base, candidates.get(0));
        String key = settings.prefix + S3JobInfoStore.newProbeName();
        boolean opened = false;
        try {
            S3JobInfoStoreFactory.headBucket(current.s3, settings, base);
            try {
                writeProbe(candidates, auto, key);
                writeMode = probeConditionalWrites(key);
            } finally {
                cleanUp(key);
            }
            opened = true;
            return current;
        } finally {
            if (!opened) {
                current.close();
            }
        }
    }

    WriteMode writeMode() {
        return writeMode;
    }

    /** The request checksum mode and why, for the start-up log line. */
    String checksumVerdict() {
        return checksumVerdict;
    }

    /** How conditional writes are made, for the start-up log line. */
    String writeVerdict() {
        return writeVerdict;
    }

    /** The first write: in the configured mode, or in auto mode in the first one the server accepts. */
    private void writeProbe(List<ChecksumMode> candidates, boolean auto, String key) throws JobInfoStoreException {
        List<String> refusals = new ArrayList<>();
        S3Exception first = null;
        for (int i = 0; i < candidates.size(); i++) {
            ChecksumMode mode = candidates.get(i);
            if (i > 0) {
                S3Clients next = S3JobInfoStoreFactory.newClients(settings, base, mode);
                current.close();
                current = next;
            }
            try {
                put(key, "probe 1");
                if (!auto) {
                    checksumVerdict = mode + " (as configured)";
                } else if (refusals.isEmpty()) {
                    checksumVerdict = mode + " (auto: the server accepts the AWS SDK's default)";
                } else {
                    checksumVerdict = mode + " (auto: the server refused " + String.join("; ", refusals) + ")";
                }
                return;
            } catch (S3Exception e) {
                first = first == null ? e : first;
                refusals.add(mode + " with " + S3Errors.describe(e));
                if (!auto || i + 1 == candidates.size() || !mayRefuseTheBody(e)) {
                    ChecksumMode adviceFor = !auto ? mode : i + 1 == candidates.size() ? ChecksumMode.AUTO
                            : ChecksumMode.CRC32C;
                    throw new JobInfoStoreException("Cannot write under the prefix (probe "
                            + S3JobInfoStore.locationOfKey(settings.bucket, key) + "): "
                            + (refusals.size() == 1 ? S3Errors.describe(e) + " in "
                            + S3StoreSettings.REQUEST_CHECKSUM + " mode " + mode
                            : S3StoreSettings.REQUEST_CHECKSUM + " modes tried: " + String.join("; ", refusals))
                            + S3Errors.hint(first, settings, adviceFor) + "; the store needs s3:PutObject,"
                            + " s3:GetObject, s3:DeleteObject, s3:ListBucket, s3:ListBucketMultipartUploads and"
                            + " s3:AbortMultipartUpload", null, base, first);
                }
            } catch (SdkClientException e) {
                throw new JobInfoStoreException(S3JobInfoStoreFactory.startupClientFailure(e, settings), null,
                        base, e);
            }
        }
        throw new IllegalStateException("no request checksum mode to try");
    }

    /**
     * Whether, in mode {@code auto}, another request checksum mode is worth trying after {@code e}: a refusal of
     * the request as such (400, 411, 501) or of its signature, which some servers report for a body encoding they
     * do not know. A refusal for lack of permission (403 AccessDenied) or a missing bucket is not.
     */
    private static boolean mayRefuseTheBody(S3Exception e) {
        int status = e.statusCode();
        String code = S3Errors.errorCode(e);
        return status == 400 || status == 411 || status == 501
                || status == 403 && "SignatureDoesNotMatch".equals(code)
                || S3Errors.refusesRequestBody(e);
    }

    private void put(String key, String body) {
        current.s3.putObject(p -> {
            S3JobInfoStore.applySse(p.bucket(settings.bucket).key(key).ifNoneMatch("*"), settings);
            if (current.sdkChecksums()) {
                p.checksumAlgorithm(ChecksumAlgorithm.CRC32_C);
            }
        }, RequestBody.fromString(body));
    }

    /**
     * Sequential checks on the existing probe key, then races for what passed.
     *
     * @return how the store makes creates atomic
     */
    private WriteMode probeConditionalWrites(String key) throws JobInfoStoreException {
        String putFailure = null;
        String completeFailure = null;
        ConditionalWriteRaceProbe.Result race = null;
        try {
            try {
                put(key, "probe 2");
                putFailure = "a second PutObject with If-None-Match: * on an existing key succeeded";
            } catch (S3Exception e) {
                if (e.statusCode() != 412) {
                    putFailure = "a second PutObject with If-None-Match: * on an existing key was answered "
                            + S3Errors.describe(e) + " instead of 412";
                }
            }
            boolean checksums = current.sdkChecksums();
            String uploadId = current.s3.createMultipartUpload(c -> {
                S3JobInfoStore.applySse(c.bucket(settings.bucket).key(key), settings);
                if (checksums) {
                    c.checksumAlgorithm(ChecksumAlgorithm.CRC32_C);
                }
            }).uploadId();
            openUploads.add(uploadId);
            UploadPartResponse part = current.s3.uploadPart(u -> u.bucket(settings.bucket).key(key)
                    .uploadId(uploadId).partNumber(1).checksumAlgorithm(checksums ? ChecksumAlgorithm.CRC32_C : null),
                    RequestBody.fromString("probe 3"));
            try {
                current.s3.completeMultipartUpload(c -> c.bucket(settings.bucket).key(key).uploadId(uploadId)
                        .ifNoneMatch("*").multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(part.eTag())
                                .checksumCRC32C(part.checksumCRC32C()))));
                openUploads.remove(uploadId);
                completeFailure = "CompleteMultipartUpload with If-None-Match: * on an existing key succeeded"
                        + " (the object was replaced)";
            } catch (S3Exception e) {
                if (e.statusCode() != 412) {
                    completeFailure = "CompleteMultipartUpload with If-None-Match: * on an existing key was"
                            + " answered " + S3Errors.describe(e) + " instead of 412";
                }
            }
            if (putFailure == null) {
                // 412 to a sequential second write is not enough: the check must also hold for racing writers
                race = new ConditionalWriteRaceProbe(current, settings).run(completeFailure == null);
                putFailure = race.failure;
            }
        } catch (S3Exception e) {
            throw new JobInfoStoreException("Cannot write under the prefix (probe "
                    + S3JobInfoStore.locationOfKey(settings.bucket, key) + "): " + S3Errors.describe(e)
                    + S3Errors.hint(e, settings, current.checksumMode) + "; the store needs s3:PutObject,"
                    + " s3:GetObject, s3:DeleteObject, s3:ListBucket, s3:ListBucketMultipartUploads and"
                    + " s3:AbortMultipartUpload", null, base, e);
        } catch (SdkClientException e) {
            throw new JobInfoStoreException(S3JobInfoStoreFactory.startupClientFailure(e, settings), null, base, e);
        }
        if (putFailure != null) {
            if (!settings.allowUnconditionalWrites) {
                throw new JobInfoStoreException("The S3 server at " + settings.describeEndpoint() + " does not"
                        + " honour conditional writes (" + putFailure + "), which write-once blobs need. Use a"
                        + " server that supports If-None-Match: * atomically on PutObject (AWS S3, recent MinIO,"
                        + " Ceph RGW), or set " + S3StoreSettings.P + S3StoreSettings.ALLOW_UNCONDITIONAL_WRITES
                        + "=true to accept that racing creators of one job id may overwrite each other", null, base);
            }
            LOG.warn("The S3 server at {} does not honour conditional writes ({}); starting anyway because {}=true:"
                    + " racing creators of one job id can overwrite each other", settings.describeEndpoint(),
                    putFailure, S3StoreSettings.ALLOW_UNCONDITIONAL_WRITES);
            writeVerdict = "NOT honoured (" + putFailure + "; allowed by "
                    + S3StoreSettings.ALLOW_UNCONDITIONAL_WRITES + ")";
            return WriteMode.UNCONDITIONAL;
        }
        String races = race.rounds + " race rounds of " + ConditionalWriteRaceProbe.WRITERS + " writers"
                + (race.cached ? ", found by an earlier start-up in this JVM" : "");
        if (completeFailure != null) {
            writeVerdict = "verified on PutObject (" + races + "), ignored by CompleteMultipartUpload ("
                    + completeFailure + "): every blob is one conditional PutObject of at most 5GiB, "
                    + S3StoreSettings.MULTIPART_THRESHOLD + " is not used";
            return WriteMode.SINGLE_PUT;
        }
        writeVerdict = "verified on PutObject and CompleteMultipartUpload (" + races + " each)";
        return WriteMode.CONDITIONAL;
    }

    private void cleanUp(String key) {
        for (String uploadId : openUploads) {
            try {
                current.s3.abortMultipartUpload(a -> a.bucket(settings.bucket).key(key).uploadId(uploadId));
            } catch (SdkException e) {
                LOG.warn("Could not abort the probe upload of {} ({}); it is not a blob and can be aborted by a"
                        + " bucket lifecycle rule", key, S3Errors.describe(e));
            }
        }
        openUploads.clear();
        try {
            current.s3.deleteObject(d -> d.bucket(settings.bucket).key(key));
        } catch (SdkException e) {
            LOG.warn("Could not delete the probe object {} ({}); it is not a blob and is ignored by the store", key,
                    S3Errors.describe(e));
        }
    }
}
