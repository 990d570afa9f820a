package io.jobinfo.store.benchmarks;

import io.jobinfo.store.service.SubmitPhaseListener;
import java.util.Arrays;

/**
 * Where the time of each submit goes: told by the registry's {@link SubmitPhaseListener} at each step, it splits every
 * submit into encode (encode, checksums, seal), blob write (the store's create), pointer write ({@code putIfAbsent}
 * with its synchronous backup) and the rest (cache put, meters), and counts the stop-the-world GC time that fell
 * inside the submit. The report quotes, for the slowest 1% of submits, how much of their time each part took.
 */
final class SubmitPhases implements SubmitPhaseListener {

    static final String[] PARTS = {"encode", "blobWrite", "pointerWrite", "rest", "gc"};

    private final long[][] parts;
    private int i;
    private long start;
    private long beforeBlob;
    private long afterBlob;
    private long afterPointer;
    private long gcStart;

    SubmitPhases(int submits) {
        parts = new long[submits][PARTS.length];
    }

    /** Call right before {@code submit(i)}. */
    void start(int index) {
        i = index;
        gcStart = ScenarioBenchmark.gcMillis();
        start = System.nanoTime();
    }

    @Override
    public void beforeBlobWrite(long jobId) {
        beforeBlob = System.nanoTime();
    }

    @Override
    public void afterBlobWrite(long jobId) {
        afterBlob = System.nanoTime();
    }

    @Override
    public void afterPointerWrite(long jobId) {
        afterPointer = System.nanoTime();
    }

    /** Call right after {@code submit(i)} returned; returns the submit's nanoseconds. */
    long end() {
        long end = System.nanoTime();
        long[] p = parts[i];
        p[0] = beforeBlob - start;
        p[1] = afterBlob - beforeBlob;
        p[2] = afterPointer - afterBlob;
        p[3] = end - afterPointer;
        p[4] = (ScenarioBenchmark.gcMillis() - gcStart) * 1_000_000L;
        return end - start;
    }

    /**
     * Mean nanoseconds of each part (order of {@link #PARTS}) over the slowest {@code fraction} of submits, judged
     * by {@code total}.
     */
    double[] tailMeans(long[] total, double fraction) {
        Integer[] order = new Integer[total.length];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Long.compare(total[b], total[a]));
        int n = Math.max(1, (int) Math.ceil(total.length * fraction));
        double[] mean = new double[PARTS.length];
        for (int k = 0; k < n; k++) {
            for (int j = 0; j < PARTS.length; j++) {
                mean[j] += parts[order[k]][j] / (double) n;
            }
        }
        return mean;
    }

    /** The p-quantile of part {@code j} over all submits, in nanoseconds. */
    long quantile(int j, double p) {
        long[] v = new long[parts.length];
        for (int k = 0; k < v.length; k++) {
            v[k] = parts[k][j];
        }
        Arrays.sort(v);
        return v[Math.min(v.length - 1, (int) Math.ceil(p * v.length) - 1)];
    }
}
