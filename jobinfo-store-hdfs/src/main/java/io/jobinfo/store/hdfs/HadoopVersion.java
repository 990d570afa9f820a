package io.jobinfo.store.hdfs;

import org.apache.hadoop.util.VersionInfo;

/**
 * The version of the Hadoop found on the class path (the engine's or the CLI's: this jar brings none), and what the
 * store needs of it. Read from {@link VersionInfo}; a version string that cannot be parsed counts as too old for
 * anything that needs a minimum, so a feature is never assumed on a Hadoop of unknown age.
 */
final class HadoopVersion {

    /** S3A conditional create ({@code fs.option.create.conditional.overwrite}, HADOOP-19256) came with 3.4.2. */
    static final String S3A_CONDITIONAL_CREATE_SINCE = "3.4.2";

    private HadoopVersion() {
    }

    /** The running Hadoop's version, such as {@code 3.1.4}; {@code "unknown"} if Hadoop does not say. */
    static String current() {
        String v = VersionInfo.getVersion();
        return v == null || v.trim().isEmpty() ? "unknown" : v.trim();
    }

    /** Whether the running Hadoop can create an S3A object conditionally ({@code If-None-Match: *}). */
    static boolean hasS3aConditionalCreate() {
        return atLeast(current(), S3A_CONDITIONAL_CREATE_SINCE);
    }

    /**
     * Whether {@code version} (such as {@code 3.1.4} or {@code 3.5.0-SNAPSHOT}) is at least {@code minimum}; false if
     * {@code version} does not start with numbers.
     */
    static boolean atLeast(String version, String minimum) {
        int[] have = parse(version);
        int[] need = parse(minimum);
        if (have == null || need == null) {
            return false;
        }
        for (int i = 0; i < need.length; i++) {
            if (have[i] != need[i]) {
                return have[i] > need[i];
            }
        }
        return true;
    }

    private static int[] parse(String version) {
        if (version == null) {
            return null;
        }
        String[] parts = version.split("[.-]");
        int[] numbers = new int[3];
        for (int i = 0; i < numbers.length; i++) {
            if (i >= parts.length) {
                numbers[i] = 0;
                continue;
            }
            try {
                numbers[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                if (i == 0) {
                    return null;
                }
                numbers[i] = 0;
                break;
            }
        }
        return numbers;
    }
}
