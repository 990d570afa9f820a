package io.jobinfo.store.hdfs;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * The HDFS client settings the store changes from Hadoop's defaults, applied only where the user's configuration
 * (site files, {@code seatunnel.hadoop.*} keys) sets none of them.
 *
 * <p><b>Why.</b> Closing a file ends in the client's {@code completeFile} call to the NameNode, which answers "not
 * yet" until the DataNode's report of the last block has arrived there; the DataNode sends it right after the write
 * but asynchronously, so a close often races it. The client then sleeps
 * {@code dfs.client.block.write.locateFollowingBlock.initial.delay.ms} (Hadoop's default 400 ms) before asking again,
 * doubling the pause up to {@code dfs.client.block.write.locateFollowingBlock.retries} (default 5) times. A profile of
 * the benchmark's submits (JFR {@code jdk.ThreadSleep} in {@code DFSOutputStream.completeFile}) found that sleep in
 * more than half of the submits: p50 18 ms, p99 434 ms. The block report is normally at the NameNode within a few
 * milliseconds, so the store starts at 2 ms and allows 13 retries: a close that races the report waits 2, 4, 8 ms
 * and so on instead of 400 (a raw 200 KB create-write-hsync-close-rename on the benchmark's HDFS took p50 21 ms with a
 * 2 ms start against 25 ms with the 10 ms start of an earlier version, measured side by side), and the total wait
 * before the client gives up (2 ms x (2^13 - 1) = 16.4 s) is no shorter than Hadoop's (400 ms x 31 = 12.4 s), so a
 * slow NameNode fails a close no sooner than before. The same two keys pace the client's retries of
 * {@code addBlock} (NotReplicatedYetException), a blob's second and later blocks only.
 *
 * <p><b>Overridable.</b> If any source other than Hadoop's own {@code *-default.xml} sets either key, neither is
 * changed: the pair is the user's. Documented in {@code docs/configuration.md}.
 */
final class HdfsClientDefaults {

    static final String INITIAL_DELAY = "dfs.client.block.write.locateFollowingBlock.initial.delay.ms";
    static final String RETRIES = "dfs.client.block.write.locateFollowingBlock.retries";

    /** The store's values, in the order they are applied. */
    static final Map<String, String> VALUES;

    static {
        Map<String, String> v = new LinkedHashMap<>();
        v.put(INITIAL_DELAY, "2");
        v.put(RETRIES, "13");
        VALUES = Collections.unmodifiableMap(v);
    }

    private HdfsClientDefaults() {
    }

    /**
     * Sets {@link #VALUES} on {@code conf} unless the user set one of them. Loads the HDFS client's default
     * resources first (so that an {@code hdfs-site.xml} on the class path counts as the user's).
     *
     * @return whether the store's values were applied
     */
    static boolean apply(Configuration conf) {
        HdfsConfiguration.init();
        for (String key : VALUES.keySet()) {
            if (setByUser(conf, key)) {
                return false;
            }
        }
        for (Map.Entry<String, String> e : VALUES.entrySet()) {
            conf.set(e.getKey(), e.getValue(), "jobinfo-store-hdfs client defaults");
        }
        return true;
    }

    /** Whether a source other than Hadoop's {@code *-default.xml} files sets {@code key} in {@code conf}. */
    static boolean setByUser(Configuration conf, String key) {
        if (conf.get(key) == null) {
            return false;
        }
        String[] sources = conf.getPropertySources(key);
        if (sources == null) {
            return true; // set, but Hadoop does not say by whom: treat it as the user's
        }
        List<String> list = Arrays.asList(sources);
        for (String s : list) {
            if (!s.endsWith("-default.xml")) {
                return true;
            }
        }
        return false;
    }
}
