package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.logging.ILogger;
import com.hazelcast.map.IMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.seatunnel.engine.core.job.JobInfo;

/**
 * The values of {@code engine_runningJobInfo} that are not SeaTunnel's {@link JobInfo} (a value of another class put
 * by a client, or bytes no member can deserialize): the drop-in leaves each one as it is, reports it once by its job
 * id, and goes on with the other jobs, so that one bad value stops neither the moves nor the gc of the others.
 * Nothing is instantiated here: the value is what Hazelcast's own deserialization gave, and this class only looks at
 * its type.
 *
 * <p>Thread-safe. Failure: none of its methods throws; a value that cannot be read counts as a bad value.
 */
final class BadValues {

    private final ILogger logger;
    private final String mapName;
    /** The ids reported, so that each is logged once while its value stays bad (at most {@value #REMEMBERED}). */
    private final Set<Long> reported = ConcurrentHashMap.newKeySet();
    private static final int REMEMBERED = 10_000;

    BadValues(ILogger logger, String mapName) {
        this.logger = logger;
        this.mapName = mapName;
    }

    /**
     * {@code value} as SeaTunnel's {@link JobInfo}; null if it is null, or if it is of another class (then reported,
     * once per job id).
     */
    JobInfo jobInfo(long jobId, Object value) {
        if (value == null || value instanceof JobInfo) {
            if (value != null && !reported.isEmpty()) {
                reported.remove(jobId); // a good value again (the common case costs one isEmpty)
            }
            return (JobInfo) value;
        }
        report(jobId, "a " + value.getClass().getName() + ", not SeaTunnel's " + JobInfo.class.getSimpleName());
        return null;
    }

    /**
     * Reads the value of {@code jobId}: its {@link JobInfo}, or null if there is none, or if it is not a
     * {@code JobInfo} or cannot be deserialized (then reported, once per job id).
     */
    JobInfo read(IMap<Long, ?> map, long jobId) {
        Object value;
        try {
            value = map.get(jobId);
        } catch (com.hazelcast.nio.serialization.HazelcastSerializationException e) {
            report(jobId, "a value no member can deserialize (" + e.getMessage() + ")");
            return null;
        }
        return jobInfo(jobId, value);
    }

    /** The entry of {@code jobId} is gone: a later bad value under that id is reported again. */
    void forget(long jobId) {
        reported.remove(jobId);
    }

    /** How many job ids have a bad value reported and not yet forgotten. */
    int count() {
        return reported.size();
    }

    private void report(long jobId, String what) {
        if (reported.size() < REMEMBERED && reported.add(jobId)) {
            logger.warning("jobinfo-store drop-in: the value of job " + jobId + " in " + mapName + " is " + what
                    + "; it is left as it is and never moved, and the other jobs are moved and collected as usual."
                    + " SeaTunnel cannot run such an entry: check where it came from, then remove it (IMap.remove("
                    + jobId + ")) or resubmit the job");
        }
    }
}
