package io.jobinfo.store.seatunnel.harness;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the measured jobs of one cluster add to SeaTunnel's IMap persistence log ({@link ImapPersistence}, the files
 * under the namespace): the log of {@code engine_runningJobInfo} per job and its largest single job (each job's growth
 * from just before its submit until it is RUNNING and, with the drop-in, its value is the reference, so the mover's
 * replace is counted too), and the log of every {@code engine*} map over the whole submit phase (that one also holds
 * what the running jobs' state and checkpoints wrote meanwhile). Single-threaded: the scenario's own thread.
 *
 * <p>Failure: a file that cannot be sized ends the measurement with an {@link java.io.UncheckedIOException} naming the
 * directory (a file removed while it is summed counts 0).
 */
final class WalMeter {

    private final Path namespace;
    private final String clusterName;
    private long mapStart = -1;
    private long clusterStart;
    private long beforeJob;
    private long largestJob;

    WalMeter(Path namespace, String clusterName) {
        this.namespace = namespace;
        this.clusterName = clusterName;
    }

    /** The namespace directory of the log (what goes into hazelcast.yaml). */
    Path namespace() {
        return namespace;
    }

    /** Marks the start of the measured jobs (after the warm-up job). */
    void start() {
        mapStart = mapBytes();
        clusterStart = ImapPersistence.clusterBytes(namespace, clusterName);
    }

    /** Marks the start of one job's submit. */
    void beforeJob() {
        beforeJob = mapBytes();
    }

    /** Marks the end of one job (RUNNING, and the reference in place with the drop-in); returns its log bytes. */
    long afterJob() {
        long bytes = mapBytes() - beforeJob;
        largestJob = Math.max(largestJob, bytes);
        return bytes;
    }

    /**
     * The figures over {@code jobs} measured jobs: {@code walBytesPerJob}, {@code walLargestJobBytes},
     * {@code walAllMapsBytesPerJob} and the log's total bytes.
     *
     * @throws IllegalStateException if {@link #start()} was not called
     */
    Map<String, Object> figures(int jobs) {
        if (mapStart < 0) {
            throw new IllegalStateException("WalMeter.start() was not called");
        }
        long map = mapBytes();
        long all = ImapPersistence.clusterBytes(namespace, clusterName);
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("namespace", namespace.toString());
        w.put("walBytesPerJob", (map - mapStart) / jobs);
        w.put("walLargestJobBytes", largestJob);
        w.put("walAllMapsBytesPerJob", (all - clusterStart) / jobs);
        w.put("walBytesOfRunningJobInfo", map);
        w.put("walBytesOfAllMaps", all);
        return w;
    }

    private long mapBytes() {
        return ImapPersistence.walBytes(namespace, clusterName, ClusterClient.RUNNING_JOB_INFO);
    }
}
