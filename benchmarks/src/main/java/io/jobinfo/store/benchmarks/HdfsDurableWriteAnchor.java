package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.hdfs.HadoopConfigurations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

import java.io.IOException;

/**
 * The bare HDFS write under a durable blob: create a temporary file whose last block is synced on close, write the
 * bytes, close, and rename it to a final name with {@code Options.Rename.NONE} (fails if the name exists): four
 * journaled NameNode calls, the HDFS store's own sequence without its checks, envelope or retries. Its directory is
 * beside the store's namespace ({@code <namespace>-bare}) and is deleted on close.
 */
final class HdfsDurableWriteAnchor implements BareDurableWrite {

    private final DistributedFileSystem fs;
    private final Path dir;
    private int seq;

    private HdfsDurableWriteAnchor(DistributedFileSystem fs, Path dir) {
        this.fs = fs;
        this.dir = dir;
    }

    /**
     * A client of the store's file system, configured as the store configures its own.
     *
     * @throws IOException              if the NameNode cannot be reached or the directory not made
     * @throws IllegalArgumentException if the file system is not HDFS (the bare rename is HDFS's)
     */
    static HdfsDurableWriteAnchor open(JobInfoStorageConfig config) throws IOException {
        Configuration conf = HadoopConfigurations.build(config);
        FileSystem fs = FileSystem.newInstance(HadoopConfigurations.fileSystemUri(config, conf), conf);
        if (!(fs instanceof DistributedFileSystem dfs)) {
            fs.close();
            throw new IllegalArgumentException("the HDFS bare write needs an hdfs:// file system, not " + fs.getUri());
        }
        Path dir = new Path(config.namespace() + "-bare");
        dfs.mkdirs(dir);
        return new HdfsDurableWriteAnchor(dfs, dir);
    }

    @Override
    public long write(byte[] bytes) throws IOException {
        int n = seq++;
        Path temp = new Path(dir, ".tmp-" + n);
        Path target = new Path(dir, n + ".blob");
        long start = System.nanoTime();
        try (FSDataOutputStream out = fs.createFile(temp).overwrite(false).recursive().syncBlock().build()) {
            out.write(bytes);
        }
        fs.rename(temp, target, Options.Rename.NONE);
        return System.nanoTime() - start;
    }

    @Override
    public String describe() {
        return "bare HDFS create (synced block) + write + close + rename";
    }

    @Override
    public void close() {
        try {
            fs.delete(dir, true);
        } catch (IOException e) {
            ScenarioBenchmark.log("HDFS bare write: could not delete %s: %s", dir, e);
        }
        try {
            fs.close();
        } catch (IOException e) {
            ScenarioBenchmark.log("HDFS bare write: close failed: %s", e);
        }
    }
}
