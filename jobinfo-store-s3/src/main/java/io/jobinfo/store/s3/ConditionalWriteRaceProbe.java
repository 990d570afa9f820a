package io.jobinfo.store.s3;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The start-up check that a server's conditional writes are atomic, not just checked: a server can answer 412 to a
 * second, sequential {@code If-None-Match: *} write and still let several writers win when they race (it looks for
 * the key, then stores, without a lock). {@link #findFailure} races {@value #WRITERS} conditional writers on one new
 * probe key, released together by a barrier once each has a warm connection, first with {@code PutObject} and then
 * with {@code CompleteMultipartUpload} (each writer uploads its part before the barrier, so only the completions
 * race), for up to {@code s3.probe.race-rounds} rounds each, and reports the first race with more than one winner.
 *
 * <p>A server that passes may still be non-atomic with a narrower window; a server that fails is certainly not
 * write-once. Every probe key and upload is removed afterwards; what cannot be removed is logged at WARN (probe keys
 * are not blob names, so the store ignores them).
 */
final class ConditionalWriteRaceProbe {

    static final int WRITERS = 8;
    /**
     * Bytes per probe write: a server that checks, then stores, is slower to store a larger body, so the race window
     * grows with it (moto let several writers win in about one round in seven with a few bytes, in about every second
     * round with 256 KiB).
     */
    static final int PROBE_BYTES = 256 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(ConditionalWriteRaceProbe.class);
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final S3Client s3;
    private final S3StoreSettings settings;

    ConditionalWriteRaceProbe(S3Client s3, S3StoreSettings settings) {
        this.s3 = s3;
        this.settings = settings;
    }

    /**
     * Runs the races.
     *
     * @return {@code null} if no race had more than one winner, else what happened, as a phrase for a message
     * @throws SdkException a probe request failed other than by losing the race (412, or 409 while another
     *                      conditional write of the key is in flight); the caller reports it
     */
    String findFailure() {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS, r -> {
            Thread t = new Thread(r, "jobinfo-s3-probe-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            for (int round = 1; round <= settings.probeRaceRounds; round++) {
                int winners = racePuts(pool, settings.prefix + S3JobInfoStore.newProbeName());
                if (winners > 1) {
                    return winners + " of " + WRITERS + " racing PutObject requests with If-None-Match: * on one new"
                            + " key succeeded (round " + round + ")";
                }
                winners = raceCompletions(pool, settings.prefix + S3JobInfoStore.newProbeName());
                if (winners > 1) {
                    return winners + " of " + WRITERS + " racing CompleteMultipartUpload requests with"
                            + " If-None-Match: * on one new key succeeded (round " + round + ")";
                }
            }
            return null;
        } finally {
            pool.shutdownNow();
        }
    }

    private int racePuts(ExecutorService pool, String key) {
        CyclicBarrier warmedUp = new CyclicBarrier(WRITERS);
        List<Future<Boolean>> results = new ArrayList<>();
        try {
            for (int i = 0; i < WRITERS; i++) {
                byte[] body = probeBody(i);
                results.add(pool.submit(() -> {
                    // One request each, all at once, so that every writer has a warm connection when they race.
                    // A writer that fails still arrives at the barrier (nobody waits for it) and then reports.
                    RuntimeException early = null;
                    try {
                        warmUp(key);
                    } catch (RuntimeException e) {
                        early = e;
                    }
                    warmedUp.await();
                    if (early != null) {
                        throw early;
                    }
                    return won(() -> s3.putObject(p -> S3JobInfoStore.applySse(p.bucket(settings.bucket).key(key)
                            .ifNoneMatch("*").checksumAlgorithm(ChecksumAlgorithm.CRC32_C), settings),
                            RequestBody.fromBytes(body)));
                }));
            }
            return countWinners(results);
        } finally {
            deleteQuietly(key);
        }
    }

    private int raceCompletions(ExecutorService pool, String key) {
        CyclicBarrier uploaded = new CyclicBarrier(WRITERS);
        String[] uploads = new String[WRITERS];
        boolean[] completed = new boolean[WRITERS];
        List<Future<Boolean>> results = new ArrayList<>();
        try {
            for (int i = 0; i < WRITERS; i++) {
                int n = i;
                results.add(pool.submit(() -> {
                    // Each writer starts its upload and sends its part on its own connection; then all complete.
                    // A writer that fails still arrives at the barrier (nobody waits for it) and then reports.
                    RuntimeException early = null;
                    UploadPartResponse uploadedPart = null;
                    try {
                        String id = s3.createMultipartUpload(c -> S3JobInfoStore.applySse(c.bucket(settings.bucket)
                                .key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32_C), settings)).uploadId();
                        uploads[n] = id;
                        uploadedPart = s3.uploadPart(u -> u.bucket(settings.bucket).key(key).uploadId(id)
                                .partNumber(1).checksumAlgorithm(ChecksumAlgorithm.CRC32_C),
                                RequestBody.fromBytes(probeBody(n)));
                    } catch (RuntimeException e) {
                        early = e;
                    }
                    uploaded.await();
                    if (early != null) {
                        throw early;
                    }
                    String uploadId = uploads[n];
                    UploadPartResponse part = uploadedPart;
                    boolean won = won(() -> s3.completeMultipartUpload(c -> c.bucket(settings.bucket).key(key)
                            .uploadId(uploadId).ifNoneMatch("*").multipartUpload(m -> m.parts(p -> p.partNumber(1)
                                    .eTag(part.eTag()).checksumCRC32C(part.checksumCRC32C())))));
                    completed[n] = won;
                    return won;
                }));
            }
            return countWinners(results);
        } finally {
            for (int i = 0; i < WRITERS; i++) {
                if (uploads[i] != null && !completed[i]) {
                    abortQuietly(key, uploads[i]);
                }
            }
            deleteQuietly(key);
        }
    }

    /** {@value #PROBE_BYTES} bytes, different for each writer. */
    private static byte[] probeBody(int writer) {
        byte[] body = new byte[PROBE_BYTES];
        java.util.Arrays.fill(body, (byte) ('a' + writer));
        return body;
    }

    /** A HEAD of the (absent) probe key: only opens a connection. */
    private void warmUp(String key) {
        try {
            s3.headObject(h -> h.bucket(settings.bucket).key(key));
        } catch (S3Exception expected) {
            // 404: the key is new
        }
    }

    /** True if {@code write} succeeded, false if the server refused it as a conflict (412, or 409 after retries). */
    private static boolean won(Callable<?> write) throws Exception {
        try {
            write.call();
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == 412 || e.statusCode() == 409) {
                return false;
            }
            throw e;
        }
    }

    /** Waits for every writer; rethrows the first request failure (an {@link SdkException} if there was one). */
    private static int countWinners(List<Future<Boolean>> results) {
        int winners = 0;
        RuntimeException failure = null;
        for (Future<Boolean> r : results) {
            try {
                if (r.get()) {
                    winners++;
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (failure == null || !(failure instanceof SdkException) && cause instanceof SdkException) {
                    failure = cause instanceof SdkException ? (SdkException) cause
                            : new IllegalStateException("A probe writer failed: " + cause, cause);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while probing the S3 server's conditional writes", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return winners;
    }

    private void abortQuietly(String key, String uploadId) {
        try {
            s3.abortMultipartUpload(a -> a.bucket(settings.bucket).key(key).uploadId(uploadId));
        } catch (SdkException e) {
            LOG.warn("Could not abort the probe upload {} of {} ({}); it is not a blob and can be aborted by a bucket"
                    + " lifecycle rule", uploadId, key, S3JobInfoStore.describe(e));
        }
    }

    private void deleteQuietly(String key) {
        try {
            s3.deleteObject(d -> d.bucket(settings.bucket).key(key));
        } catch (SdkException e) {
            LOG.warn("Could not delete the probe object {} ({}); it is not a blob and is ignored by the store", key,
                    S3JobInfoStore.describe(e));
        }
    }
}
