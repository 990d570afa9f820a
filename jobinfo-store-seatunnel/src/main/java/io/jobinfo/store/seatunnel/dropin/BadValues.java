package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.logging.ILogger;
import com.hazelcast.map.IMap;
import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.MapValueReader;
import io.jobinfo.store.seatunnel.SeaTunnelJobInfoFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.seatunnel.engine.core.job.JobInfo;

/**
 * The values of {@code engine_runningJobInfo} that are not SeaTunnel's {@link JobInfo} (a value of another class put
 * by a client, bytes of a serializer no member knows, a Java-serialized object): the drop-in leaves each one as it is,
 * reports it once by its job id, and goes on with the other jobs, so that one bad value stops neither the moves nor
 * the gc of the others. Nothing is instantiated from a class that the stored bytes name: every value is read as the
 * Hazelcast {@code Data} the map stores, through a {@link MapValueReader} that decodes SeaTunnel's {@code JobInfo}
 * only (by its factory and class id, {@link SeaTunnelJobInfoFormat}); anything else is reported from its header.
 *
 * <p>Thread-safe. Failure: {@link #read} throws what the cluster call threw (not the value's problem); nothing else
 * throws, and a value that cannot be read counts as a bad value.
 */
final class BadValues {

    private final ILogger logger;
    private final String mapName;
    private final MapValueReader reader;
    /** The ids reported, so that each is logged once while its value stays bad (at most {@value #REMEMBERED}). */
    private final Set<Long> reported = ConcurrentHashMap.newKeySet();
    private static final int REMEMBERED = 10_000;

    BadValues(ILogger logger, IMap<Long, ?> map) {
        this.logger = logger;
        this.mapName = map.getName();
        this.reader = reader(map);
    }

    /** The reader this uses: the map's values as stored Data, decoding SeaTunnel's {@code JobInfo} only. */
    MapValueReader values() {
        return reader;
    }

    /** A reader of {@code map} that decodes SeaTunnel's {@code JobInfo} and nothing a stored byte names. */
    static MapValueReader reader(IMap<Long, ?> map) {
        return new MapValueReader(map, JobValueFormats.of(new SeaTunnelJobInfoFormat()));
    }

    /**
     * The {@link JobInfo} that {@code stored} (the map's serialized value, as a member's own entry event carries it)
     * holds; null if it is null, or if it is anything else (then reported, once per job id).
     */
    JobInfo jobInfo(long jobId, Data stored) {
        return jobInfo(reader.classify(jobId, stored));
    }

    /**
     * Reads the value of {@code jobId}: its {@link JobInfo}, or null if there is none, or if it is anything else
     * (then reported, once per job id).
     *
     * @throws RuntimeException the cluster call failed
     */
    JobInfo read(long jobId) {
        return jobInfo(reader.read(jobId));
    }

    /**
     * The {@link JobInfo} that {@code value} decoded to; null if it is absent, or if it is anything else (then
     * reported, once per job id).
     */
    private JobInfo jobInfo(MapValue value) {
        long jobId = value.jobId();
        if (value.absent()) {
            return null;
        }
        if (value.decoded() && value.value() instanceof JobInfo) {
            if (!reported.isEmpty()) {
                reported.remove(jobId); // a good value again (the common case costs one isEmpty)
            }
            return (JobInfo) value.value();
        }
        report(jobId, value.decoded() ? " is a " + value.value().getClass().getName() + ", not SeaTunnel's "
                + JobInfo.class.getSimpleName() : ": " + value.problem());
        return null;
    }

    /** The entry of {@code jobId} is gone: a later bad value under that id is reported again. */
    void forget(long jobId) {
        reported.remove(jobId);
    }

    /** How many job ids have a bad value reported and not yet forgotten. */
    int count() {
        return reported.size();
    }

    /** Logs the bad value once; {@code what} follows "the value of job N in the map" (" is ...", or ": ..."). */
    private void report(long jobId, String what) {
        if (reported.size() < REMEMBERED && reported.add(jobId)) {
            logger.warning("jobinfo-store drop-in: the value of job " + jobId + " in " + mapName + what
                    + "; it is left as it is and never moved, and the other jobs are moved and collected as usual."
                    + " SeaTunnel cannot run such an entry: check where it came from, then remove it (IMap.delete("
                    + jobId + ")) or resubmit the job");
        }
    }
}
