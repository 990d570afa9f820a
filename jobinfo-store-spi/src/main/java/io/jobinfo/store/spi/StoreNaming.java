package io.jobinfo.store.spi;

import io.jobinfo.store.envelope.Hex;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.OptionalLong;

/**
 * How job ids become object names, shared by every backend so that a blob written by one can be found by another.
 * A blob is named {@code <16 hex digits of the job id>.jobinfo}; an interrupted write leaves
 * {@code .tmp-<16 hex digits>-<random>}. Both names are built from the job id's bits alone, so no id can produce a
 * path separator or a traversal.
 */
public final class StoreNaming {

    public static final String BLOB_SUFFIX = ".jobinfo";
    public static final String TEMP_PREFIX = ".tmp-";

    private StoreNaming() {
    }

    /** {@code 000000000000007b.jobinfo} for job 123; {@code ffffffffffffffff.jobinfo} for job -1. */
    public static String blobName(long jobId) {
        return Hex.digits(jobId) + BLOB_SUFFIX;
    }

    /** A unique temporary name for a write of {@code jobId} in progress. */
    public static String tempName(long jobId, String unique) {
        return TEMP_PREFIX + Hex.digits(jobId) + "-" + unique;
    }

    /** The job id of a blob name, or empty if {@code name} is not one. */
    public static OptionalLong parseBlobName(String name) {
        if (name.length() != 16 + BLOB_SUFFIX.length() || !name.endsWith(BLOB_SUFFIX)) {
            return OptionalLong.empty();
        }
        return parseHex(name.substring(0, 16));
    }

    /** The job id of a temporary name, or empty if {@code name} is not one. */
    public static OptionalLong parseTempName(String name) {
        if (!name.startsWith(TEMP_PREFIX) || name.length() < TEMP_PREFIX.length() + 17
                || name.charAt(TEMP_PREFIX.length() + 16) != '-') {
            return OptionalLong.empty();
        }
        return parseHex(name.substring(TEMP_PREFIX.length(), TEMP_PREFIX.length() + 16));
    }

    /**
     * Whether {@code name} is a temporary name this project writes for {@code jobId}: {@link #tempName} with a unique
     * part of letters, digits, {@code -} and {@code _} only, so it names a file in the store's own directory and
     * nothing else (no separator, no {@code ..}).
     */
    public static boolean isTempNameOf(String name, long jobId) {
        OptionalLong id = name == null ? OptionalLong.empty() : parseTempName(name);
        if (!id.isPresent() || id.getAsLong() != jobId) {
            return false;
        }
        String unique = name.substring(TEMP_PREFIX.length() + 17);
        if (unique.isEmpty()) {
            return false;
        }
        for (int i = 0; i < unique.length(); i++) {
            char c = unique.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    private static OptionalLong parseHex(String hex) {
        for (int i = 0; i < hex.length(); i++) {
            if (Character.digit(hex.charAt(i), 16) < 0 || Character.isUpperCase(hex.charAt(i))) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(Hex.parseLong(hex));
    }

    /**
     * A store id derived from what identifies the namespace (type, cluster or bucket, path): 8 hex digits of its
     * SHA-256. Used when the configuration names no {@code store-id}.
     */
    public static String deriveStoreId(String canonicalNamespace) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(canonicalNamespace.getBytes(StandardCharsets.UTF_8));
            return Hex.format(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
