package io.jobinfo.store.s3;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
 * probe key, released together, first with {@code PutObject} and then with {@code CompleteMultipartUpload} (the
 * parts are uploaded before the release, so only the completions race), for {@value #ROUNDS} rounds each, and reports
 * the first race with more than one winner.
 *
 * <p>A server that passes may still be non-atomic with a narrower window; a server that fails is certainly not
 * write-once. Every probe key and upload is removed afterwards; what cannot be removed is logged at WARN (probe keys
 * are not blob names, so the store ignores them).
 */
final class ConditionalWriteRaceProbe {

    static final int WRITERS = 8;
    static final int ROUNDS = 3;

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
            for (int round = 1; round <= ROUNDS; round++) {
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
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        try {
            for (int i = 0; i < WRITERS; i++) {
                String body = "race " + i;
                results.add(pool.submit(() -> {
                    go.await();
                    return won(() -> s3.putObject(p -> S3JobInfoStore.applySse(p.bucket(settings.bucket).key(key)
                            .ifNoneMatch("*").checksumAlgorithm(ChecksumAlgorithm.CRC32_C), settings),
                            RequestBody.fromString(body)));
                }));
            }
            go.countDown();
            return countWinners(results);
        } finally {
            go.countDown();
            deleteQuietly(key);
        }
    }

    private int raceCompletions(ExecutorService pool, String key) {
        List<String> uploads = new ArrayList<>();
        List<UploadPartResponse> parts = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        boolean[] completed = new boolean[WRITERS];
        try {
            for (int i = 0; i < WRITERS; i++) {
                String uploadId = s3.createMultipartUpload(c -> S3JobInfoStore.applySse(c.bucket(settings.bucket)
                        .key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32_C), settings)).uploadId();
                uploads.add(uploadId);
                int n = i;
                parts.add(s3.uploadPart(u -> u.bucket(settings.bucket).key(key).uploadId(uploadId).partNumber(1)
                        .checksumAlgorithm(ChecksumAlgorithm.CRC32_C), RequestBody.fromString("race part " + n)));
            }
            for (int i = 0; i < WRITERS; i++) {
                String uploadId = uploads.get(i);
                UploadPartResponse part = parts.get(i);
                int n = i;
                results.add(pool.submit(() -> {
                    go.await();
                    boolean won = won(() -> s3.completeMultipartUpload(c -> c.bucket(settings.bucket).key(key)
                            .uploadId(uploadId).ifNoneMatch("*").multipartUpload(m -> m.parts(p -> p.partNumber(1)
                                    .eTag(part.eTag()).checksumCRC32C(part.checksumCRC32C())))));
                    completed[n] = won;
                    return won;
                }));
            }
            go.countDown();
            return countWinners(results);
        } finally {
            go.countDown();
            for (int i = 0; i < uploads.size(); i++) {
                if (!completed[i]) {
                    abortQuietly(key, uploads.get(i));
                }
            }
            deleteQuietly(key);
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

    private static int countWinners(List<Future<Boolean>> results) {
        int winners = 0;
        for (Future<Boolean> r : results) {
            try {
                if (r.get()) {
                    winners++;
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof SdkException) {
                    throw (SdkException) e.getCause();
                }
                throw new IllegalStateException("A probe writer failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while probing the S3 server's conditional writes", e);
            }
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
