package io.jobinfo.store.hdfs;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS (MiniDFSCluster: one NameNode and {@code args[1]} DataNodes on 127.0.0.1, Hadoop of this module's test
 * class path) as a process of its own, for clients that cannot have that Hadoop in their own JVM: seatunnel-it's
 * SeaTunnel members run SeaTunnel's Hadoop 3.1.4 client (the uber jar) and its test JVM has no Hadoop at all. Stores
 * under {@code args[0]} (formatted at start). Prints {@code MINIDFS-READY <hdfs URI>} on stdout once every DataNode
 * is up, then runs until its stdin is closed (the parent ended or let go of it) or it gets SIGTERM; either way it
 * shuts the cluster down (the directory is kept). Exits with status 1 (message on stderr) if the cluster cannot
 * start, 2 on wrong arguments.
 *
 * <p>The seatunnel-it side is {@code MiniDfsProcess}; the class path is this module's test class path, written by the
 * build to {@code target/minidfs.classpath}.
 */
public final class MiniDfsMain {

    static final String READY = "MINIDFS-READY ";

    private MiniDfsMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: MiniDfsMain <basedir> <datanodes>");
            System.exit(2);
        }
        MiniDFSCluster cluster;
        try {
            Configuration conf = new Configuration();
            conf.setInt("dfs.heartbeat.interval", 1);
            conf.setInt("dfs.namenode.safemode.extension", 0);
            conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
            cluster = new MiniDFSCluster.Builder(conf, new File(args[0])).numDataNodes(Integer.parseInt(args[1]))
                    .format(true).build();
            cluster.waitActive();
        } catch (Exception e) {
            System.err.println("MiniDFSCluster could not start: " + e);
            e.printStackTrace();
            System.exit(1);
            return;
        }
        AtomicBoolean stopped = new AtomicBoolean();
        MiniDFSCluster started = cluster;
        Runnable stop = () -> {
            if (stopped.compareAndSet(false, true)) {
                started.shutdown(false);
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "stop-minidfs"));
        System.out.println(READY + cluster.getURI());
        System.out.flush();
        InputStream in = System.in;
        try {
            while (in.read() >= 0) {
                // anything the parent writes is ignored: only the end of the stream counts
            }
        } catch (IOException parentGone) {
            // as an end of stream
        }
        stop.run();
        System.exit(0);
    }
}
