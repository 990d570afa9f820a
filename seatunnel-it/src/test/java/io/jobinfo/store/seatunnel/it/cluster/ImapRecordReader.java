package io.jobinfo.store.seatunnel.it.cluster;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.apache.seatunnel.engine.imap.storage.file.common.WALReader;
import org.apache.seatunnel.engine.imap.storage.file.config.FileConfiguration;
import org.apache.seatunnel.engine.serializer.protobuf.ProtoStuffSerializer;

import java.net.URI;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;

/** {@link ImapRecordProbe}'s work, in a class of its own so that only a member (which has Hadoop) loads it. */
final class ImapRecordReader {

    private ImapRecordReader() {}

    static HashMap<Long, long[]> read(String mapDir) throws Exception {
        FileSystem fs = FileSystem.newInstance(URI.create("file:///"), new Configuration());
        try {
            ProtoStuffSerializer serializer = new ProtoStuffSerializer();
            Map<Object, Object> all = new WALReader(fs, FileConfiguration.HDFS, serializer)
                    .loadAllData(new Path(mapDir), new HashSet<>());
            HashMap<Long, long[]> out = new HashMap<>();
            for (Map.Entry<Object, Object> e : all.entrySet()) {
                JobInfo info = (JobInfo) e.getValue();
                out.put((Long) e.getKey(), new long[] {info.getJobImmutableInformation().getType(),
                        info.getJobImmutableInformation().totalSize(), serializer.serialize(info).length});
            }
            return out;
        } finally {
            fs.close();
        }
    }
}
