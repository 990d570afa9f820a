package io.jobinfo.store.seatunnel.it.cluster;

import java.io.Serializable;
import java.util.HashMap;
import java.util.concurrent.Callable;

/**
 * Runs inside a member and reads {@code engine_runningJobInfo}'s persisted records with SeaTunnel's own WAL reader, as
 * a restarted cluster loads them: per job id, {@code [type id of the job's Data inside JobInfo, size of that Data,
 * size of the record as SeaTunnel serializes it (ProtoStuff)]}. In a member because the reader needs Hadoop (the uber
 * jar), which the test JVM does not have.
 */
public final class ImapRecordProbe implements Callable<HashMap<Long, long[]>>, Serializable {

    private static final long serialVersionUID = 1L;

    private final String mapDir;

    public ImapRecordProbe(String mapDir) {
        this.mapDir = mapDir;
    }

    @Override
    public HashMap<Long, long[]> call() throws Exception {
        return ImapRecordReader.read(mapDir);
    }
}
