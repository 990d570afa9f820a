package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.embedded.InJvmS3Server;
import java.nio.file.Path;

/**
 * The S3 backend as a store tens of milliseconds away would be: an in-JVM S3 server of its own (S3Proxy, filesystem
 * blob store, as the {@code s3} backend) that answers every operation {@code delayMillis} late, by S3Proxy's own
 * latency middleware (these machines have no netem). The delay is inside the server, so the client keeps its
 * connections open between requests as it would with a real object store; a TCP proxy that closes every
 * connection would measure connection set-up too. Named {@code s3-delay<ms>}.
 */
final class DelayedS3Backend implements Backend {

    private final InJvmS3Server server;
    private final int delayMillis;

    DelayedS3Backend(Path dir, int delayMillis) throws Exception {
        this.delayMillis = delayMillis;
        this.server = new InJvmS3Server(dir, "jobinfo-bench", delayMillis);
    }

    @Override
    public String name() {
        return "s3-delay" + delayMillis;
    }

    @Override
    public String describe() {
        return "an S3 server of its own that answers every operation " + delayMillis + " ms late (in-JVM S3Proxy 4.1.0,"
                + " filesystem blob store, its latency middleware s3proxy.latency-blobstore.*.latency=" + delayMillis
                + ", at " + server.endpoint() + "; connections stay open between requests)";
    }

    @Override
    public JobInfoStorageConfig config(String ns) {
        return server.config("seatunnel/jobinfo-delayed/" + ns);
    }

    @Override
    public void close() {
        server.close();
    }
}
