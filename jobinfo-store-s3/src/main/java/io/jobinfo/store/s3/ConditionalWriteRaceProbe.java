package io.jobinfo.store.s3;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
 * the key, then stores, without a lock). {@link #run} races {@value #WRITERS} conditional writers on one new probe
 * key, released together by a barrier once each has a warm connection, first with {@code PutObject} and then with
 * {@code CompleteMultipartUpload} (each writer uploads its part before the barrier, so only the completions race),
 * for up to {@code s3.probe.race-rounds} rounds, and reports the first race with more than one winner. A racing
 * CompleteMultipartUpload with several winners refuses the server like a racing PutObject: it proves the server
 * checks, then stores, and nothing then vouches for its PutObject either.
 *
 * <p><b>How reliable, and why so.</b> Such a server lets several writers win only when one writer's check falls
 * between another's check and store, so the probe widens that window where it is cheap to: each racing completion
 * assembles a part of {@value #COMPLETION_PART_BYTES} bytes (S3's 5 MiB minimum part size plus 1 KiB), which a
 * check-then-store server reads and writes back inside the window. moto 5.2.1 (which keeps objects up to 5 MiB - 1 KiB
 * in memory, larger ones in files) let several racing completions win in 79 of 80 rounds measured here that way
 * (2 moto processes, with and without SDK checksums), against 6 to 65% of rounds with 16 KiB to 4 MiB parts, varying
 * from one moto process to the next; with the default of {@value S3StoreSettings#DEFAULT_PROBE_RACE_ROUNDS} rounds
 * the chance that moto passes is below one in a million (even a per-round detection of 80% leaves 0.8%), where the
 * former 5 rounds of 256 KiB let it pass in 2 of 3 start-ups. The price: {@value #WRITERS} x 5 MiB uploaded per round
 * (streamed, not buffered). The racing PutObject requests stay at {@value #PROBE_BYTES} bytes: moto let several win
 * in 0 of 120 rounds measured with 256 KiB bodies and no SDK checksum, and in 15 to 65% of rounds with 5 MiB bodies;
 * the completion race is the one that catches such a server. On a server whose CompleteMultipartUpload ignores the
 * condition (RGW 16), only PutObject is raced, and then with bodies of a racing part's size (8 x 5 MiB per round).
 *
 * <p><b>A failure is recorded in the bucket.</b> The probe is probabilistic: even with the part sizes above, a loaded
 * machine let moto pass one start-up in 10. So the first race with several winners is recorded in an object under
 * the store's prefix ({@link RaceVerdictRecord}, {@code <prefix>}{@value RaceVerdictRecord#NAME}), and every later
 * start-up on that prefix, in any JVM, refuses the server while the object exists, without racing: once any start-up
 * has caught such a server, none lets it through by luck. The refusal names the object and says to delete it once
 * the server is fixed or replaced. A server that passes is never recorded in the bucket.
 *
 * <p><b>"Passed" is kept in this JVM.</b> A race that found one winner is kept in this JVM for
 * {@value #VERDICT_TTL_MINUTES} minutes per endpoint, bucket and request checksum mode, so that several stores opened
 * on one bucket (the tools, the tests) race once; the sequential checks and the look for a recorded failure run at
 * every start-up regardless. An engine member opens its store once, so it always races.
 *
 * <p>A server that passes may still be non-atomic with a narrower window; a server that fails is certainly not
 * write-once. Every probe key and upload is removed afterwards; what cannot be removed is logged at WARN (probe keys
 * are not blob names, so the store ignores them).
 */
final class ConditionalWriteRaceProbe {

    static final int WRITERS = 8;
    /** Bytes per racing PutObject. */
    static final int PROBE_BYTES = 256 * 1024;
    /** Bytes of the one part of each racing multipart upload (see the class comment). */
    static final int COMPLETION_PART_BYTES = (5 << 20) + 1024;
    static final long VERDICT_TTL_MINUTES = 60;

    private static final Logger LOG = LoggerFactory.getLogger(ConditionalWriteRaceProbe.class);
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ConcurrentHashMap<String, Result> VERDICTS = new ConcurrentHashMap<>();

    private final S3Client s3;
    private final S3StoreSettings settings;
    private final boolean sdkChecksums;
    private final String verdictKey;

    ConditionalWriteRaceProbe(S3Clients clients, S3StoreSettings settings) {
        this.s3 = clients.s3;
        this.settings = settings;
        this.sdkChecksums = clients.sdkChecksums();
        this.verdictKey = settings.describeEndpoint() + "|" + settings.bucket + "|" + clients.checksumMode;
    }

    /** What the races found. */
    static final class Result {
        /** The first race with several winners, as a phrase for a message; {@code null} if none. */
        final String failure;
        /** Rounds run (a failure ends the races). */
        final int rounds;
        /** Whether completions raced too. */
        final boolean completions;
        final long atNanos;
        /**
         * Whether this verdict was found by an earlier start-up: a pass in this JVM, or a failure recorded in the
         * bucket.
         */
        final boolean cached;

        Result(String failure, int rounds, boolean completions, long atNanos, boolean cached) {
            this.failure = failure;
            this.rounds = rounds;
            this.completions = completions;
            this.atNanos = atNanos;
            this.cached = cached;
        }
    }

    /** Tests: forget every verdict kept in this JVM, so that the next start-up races again. */
    static void forgetVerdicts() {
        VERDICTS.clear();
    }

    /**
     * Refuses at once if an earlier start-up recorded a race with several winners in the bucket
     * ({@link RaceVerdictRecord}); else runs up to {@code s3.probe.race-rounds} rounds, each racing PutObject, then
     * (if {@code raceCompletions}) CompleteMultipartUpload, unless this JVM found one winner in every race for this
     * bucket within the last {@value #VERDICT_TTL_MINUTES} minutes with at least as many rounds. The first race with
     * more than one winner ends the probe and is recorded in the bucket.
     *
     * @throws SdkException a probe request failed other than by losing the race (412, or 409 while another
     *                      conditional write of the key is in flight); the caller reports it
     */
    Result run(boolean raceCompletions) {
        RaceVerdictRecord record = new RaceVerdictRecord(s3, settings);
        String recorded = record.read();
        if (recorded != null) {
            return new Result(recorded, 0, raceCompletions, System.nanoTime(), true);
        }
        Result known = VERDICTS.get(verdictKey);
        if (known != null && System.nanoTime() - known.atNanos < TimeUnit.MINUTES.toNanos(VERDICT_TTL_MINUTES)
                && known.rounds >= settings.probeRaceRounds && (known.completions || !raceCompletions)) {
            return new Result(null, known.rounds, known.completions, known.atNanos, true);
        }
        Result found = race(raceCompletions);
        if (found.failure != null) {
            return new Result(found.failure + record.record(found.failure), found.rounds, found.completions,
                    found.atNanos, false);
        }
        VERDICTS.put(verdictKey, found);
        return found;
    }

    private Result race(boolean raceCompletions) {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS, r -> {
            Thread t = new Thread(r, "jobinfo-s3-probe-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        int round = 0;
        try {
            while (round < settings.probeRaceRounds) {
                round++;
                // without the completion race, the PutObject race is the only one: its bodies are as large as a
                // racing part, which widens a check-then-store server's window as the completions do
                int winners = racePuts(pool, settings.prefix + S3JobInfoStore.newProbeName(),
                        raceCompletions ? PROBE_BYTES : COMPLETION_PART_BYTES);
                if (winners > 1) {
                    return new Result(winners + " of " + WRITERS + " racing PutObject requests with"
                            + " If-None-Match: * on one new key succeeded (round " + round + ")", round,
                            raceCompletions, System.nanoTime(), false);
                }
                if (raceCompletions) {
                    winners = raceCompletions(pool, settings.prefix + S3JobInfoStore.newProbeName());
                    if (winners > 1) {
                        return new Result(winners + " of " + WRITERS + " racing CompleteMultipartUpload requests"
                                + " with If-None-Match: * on one new key succeeded (round " + round + "): the server"
                                + " checks, then stores", round, true, System.nanoTime(), false);
                    }
                }
            }
            return new Result(null, round, raceCompletions, System.nanoTime(), false);
        } finally {
            pool.shutdownNow();
        }
    }

    private int racePuts(ExecutorService pool, String key, int bodyBytes) {
        CyclicBarrier warmedUp = new CyclicBarrier(WRITERS);
        List<Future<Boolean>> results = new ArrayList<>();
        try {
            for (int i = 0; i < WRITERS; i++) {
                byte value = (byte) ('a' + i);
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
                            .ifNoneMatch("*").checksumAlgorithm(sdkChecksums ? ChecksumAlgorithm.CRC32_C : null),
                            settings), RequestBody.fromContentProvider(() -> new FilledStream(bodyBytes, value),
                            bodyBytes, "application/octet-stream")));
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
                                .key(key).checksumAlgorithm(sdkChecksums ? ChecksumAlgorithm.CRC32_C : null),
                                settings)).uploadId();
                        uploads[n] = id;
                        uploadedPart = s3.uploadPart(u -> u.bucket(settings.bucket).key(key).uploadId(id)
                                .partNumber(1).contentLength((long) COMPLETION_PART_BYTES)
                                .checksumAlgorithm(sdkChecksums ? ChecksumAlgorithm.CRC32_C : null),
                                RequestBody.fromContentProvider(() -> new FilledStream(COMPLETION_PART_BYTES,
                                        (byte) ('a' + n)), COMPLETION_PART_BYTES, "application/octet-stream"));
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

    /** {@code length} copies of one byte, generated as read (a probe part is not held in memory). */
    private static final class FilledStream extends InputStream {
        private final byte value;
        private long left;

        FilledStream(long length, byte value) {
            this.left = length;
            this.value = value;
        }

        @Override
        public int read() {
            if (left <= 0) {
                return -1;
            }
            left--;
            return value & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            Arrays.fill(b, off, off + n, value);
            left -= n;
            return n;
        }
    }

    /** {@value #PROBE_BYTES} bytes, different for each writer. */
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
                    + " lifecycle rule", uploadId, key, S3Errors.describe(e));
        }
    }

    private void deleteQuietly(String key) {
        try {
            s3.deleteObject(d -> d.bucket(settings.bucket).key(key));
        } catch (SdkException e) {
            LOG.warn("Could not delete the probe object {} ({}); it is not a blob and is ignored by the store", key,
                    S3Errors.describe(e));
        }
    }
}
