package io.jobinfo.store.s3;

import io.jobinfo.store.location.Location;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The start-up race's verdict "racing conditional writers both won", kept in the bucket: the object
 * {@code <prefix>}{@value #NAME} beside the probe keys (not a blob name, so the store's listing, garbage collection
 * and the tools skip it). A race is probabilistic: a server that checks, then stores, may let one start-up pass that
 * another refused. Once any start-up has seen several racing winners, that proof is recorded here and every later
 * start-up on this prefix refuses the server while the object exists, whatever its own race finds, until an operator
 * who fixed (or replaced) the server deletes the object. A verdict of "safe" is never recorded: a race that finds
 * one winner proves nothing for the next start-up, which races again.
 */
final class RaceVerdictRecord {

    /** The object's name under the store's prefix. */
    static final String NAME = ".probe-race-verdict";
    private static final int SHOWN_CHARS = 600;

    private static final Logger LOG = LoggerFactory.getLogger(RaceVerdictRecord.class);

    private final S3Client s3;
    private final S3StoreSettings settings;
    private final String key;

    RaceVerdictRecord(S3Client s3, S3StoreSettings settings) {
        this.s3 = s3;
        this.settings = settings;
        this.key = settings.prefix + NAME;
    }

    /** {@code s3://bucket/<prefix>.probe-race-verdict}. */
    Location location() {
        return S3JobInfoStore.locationOfKey(settings.bucket, key);
    }

    /**
     * The recorded verdict as a phrase for the refusal, naming the object and how to remove it; {@code null} when
     * there is none.
     *
     * @throws SdkException the object could not be read (other than absent); the caller reports it
     */
    String read() {
        String text;
        try {
            text = s3.getObjectAsBytes(g -> g.bucket(settings.bucket).key(key)).asString(StandardCharsets.UTF_8);
        } catch (SdkException e) {
            if (S3Errors.isNotFound(e)) {
                return null;
            }
            throw e;
        }
        String shown = text.trim();
        if (shown.length() > SHOWN_CHARS) {
            shown = shown.substring(0, SHOWN_CHARS) + "...";
        }
        return "an earlier start-up recorded in " + location() + " that racing conditional writers both won ("
                + shown + "), and every start-up on this prefix refuses the server while that object exists; once"
                + " the server is fixed or replaced, delete it (for example: aws s3 rm " + location()
                + (settings.endpoint != null ? " --endpoint-url " + settings.endpoint : "") + ") and start again"
                + " to let the probe race anew";
    }

    /**
     * Records {@code failure} (what the race found); a failure to write it is logged at WARN and described in the
     * returned phrase, which the refusal appends.
     */
    String record(String failure) {
        String text = "found " + Instant.now() + " via " + settings.describeEndpoint() + ": " + failure + "\n";
        try {
            s3.putObject(p -> S3JobInfoStore.applySse(p.bucket(settings.bucket).key(key)
                    .contentType("text/plain; charset=utf-8"), settings), RequestBody.fromString(text));
            return "; recorded in " + location() + ", so every later start-up on this prefix refuses the server"
                    + " until that object is deleted (do so once the server is fixed or replaced)";
        } catch (SdkException e) {
            LOG.warn("Could not record the race verdict in {} ({}); later start-ups race again", location(),
                    S3Errors.describe(e));
            return "; not recorded in " + location() + " (" + S3Errors.describe(e) + ")";
        }
    }
}
