package io.jobinfo.store.testing;

import java.util.SplittableRandom;

/** Makes {@link TestJob}s of a requested encoded size; deterministic for a given seed and job id. */
public final class TestJobGenerator {

    private static final byte[] ALPHABET = "abcdefghijklmnopqrstuvwxyz{}[]:,\"0123456789".getBytes(
            java.nio.charset.StandardCharsets.US_ASCII);

    private final long seed;

    public TestJobGenerator(long seed) {
        this.seed = seed;
    }

    /** A job whose encoding is {@code targetBytes} within a few dozen bytes (at least 64 bytes of DAG). */
    public TestJob generate(long jobId, int targetBytes) {
        SplittableRandom random = new SplittableRandom(seed * 31 + jobId);
        String name = "job-" + Long.toUnsignedString(jobId) + "-" + Long.toHexString(random.nextLong());
        byte[] dag = new byte[Math.max(64, targetBytes - name.length() - 16)];
        for (int i = 0; i < dag.length; i++) {
            dag[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return new TestJob(jobId, name, dag);
    }
}
