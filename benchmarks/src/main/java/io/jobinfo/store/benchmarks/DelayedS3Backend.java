package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.testing.S3FaultProxy;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The S3 backend as a store tens of milliseconds away would be: the same in-JVM S3 server, reached through the s3
 * test-jar's {@link S3FaultProxy}, which holds every request {@code delayMillis} before forwarding it (these machines
 * have no netem). Named {@code s3-delay<ms>}; its blobs live under a key prefix of their own.
 */
final class DelayedS3Backend implements Backend {

    private final Function<String, JobInfoStorageConfig> direct;
    private final S3FaultProxy proxy;
    private final int delayMillis;
    private final String description;

    /**
     * @param direct   the configuration of the undelayed S3 backend for a namespace
     * @param endpoint the S3 server's endpoint
     */
    DelayedS3Backend(Function<String, JobInfoStorageConfig> direct, URI endpoint, int delayMillis) throws Exception {
        this.direct = direct;
        this.delayMillis = delayMillis;
        this.proxy = new S3FaultProxy(endpoint);
        proxy.latency(delayMillis);
        this.description = "the s3 store's server behind a proxy adding " + delayMillis + " ms to every request ("
                + "S3FaultProxy at " + proxy.endpoint() + "; each request on a connection of its own)";
    }

    @Override
    public String name() {
        return "s3-delay" + delayMillis;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public JobInfoStorageConfig config(String ns) {
        JobInfoStorageConfig c = direct.apply("seatunnel/jobinfo-delayed/" + ns);
        Map<String, String> options = new LinkedHashMap<>(c.pluginConfig());
        options.put("s3.endpoint", proxy.endpoint().toString());
        return JobInfoStorageConfig.builder(c.type()).namespace(c.namespace()).options(options).build();
    }

    @Override
    public void close() {
        proxy.close();
    }
}
