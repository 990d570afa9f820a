package io.jobinfo.store.demo.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The immutable description of a submitted job, with the fields of SeaTunnel's {@code JobImmutableInformation}:
 * the bulk of it is the serialized logical DAG. Plugin jar URLs are kept as strings (SeaTunnel holds
 * {@code java.net.URL}s; a string avoids a DNS lookup in {@code URL.equals}).
 */
public final class JobImmutableInformation {
    private final long jobId;
    private final String jobName;
    private final boolean isStartWithSavePoint;
    private final long createTime;
    private final byte[] logicalDag;
    private final JobConfig jobConfig;
    private final List<String> pluginJarsUrls;
    private final Set<ConnectorJarIdentifier> connectorJarIdentifiers;

    public JobImmutableInformation(long jobId, String jobName, boolean isStartWithSavePoint, long createTime,
                                   byte[] logicalDag, JobConfig jobConfig, List<String> pluginJarsUrls,
                                   Set<ConnectorJarIdentifier> connectorJarIdentifiers) {
        this.jobId = jobId;
        this.jobName = Objects.requireNonNull(jobName, "jobName");
        this.isStartWithSavePoint = isStartWithSavePoint;
        this.createTime = createTime;
        this.logicalDag = Objects.requireNonNull(logicalDag, "logicalDag").clone();
        this.jobConfig = Objects.requireNonNull(jobConfig, "jobConfig");
        List<String> urls = new ArrayList<>(pluginJarsUrls.size());
        for (String url : pluginJarsUrls) {
            urls.add(Objects.requireNonNull(url, "plugin jar url"));
        }
        this.pluginJarsUrls = Collections.unmodifiableList(urls);
        this.connectorJarIdentifiers = Collections.unmodifiableSet(new LinkedHashSet<>(connectorJarIdentifiers));
    }

    public long jobId() {
        return jobId;
    }

    public String jobName() {
        return jobName;
    }

    public boolean isStartWithSavePoint() {
        return isStartWithSavePoint;
    }

    public long createTime() {
        return createTime;
    }

    /** A copy of the serialized logical DAG. */
    public byte[] logicalDag() {
        return logicalDag.clone();
    }

    /** Size of the logical DAG without copying it. */
    public int logicalDagLength() {
        return logicalDag.length;
    }

    /** Writes the logical DAG to {@code out} without an intermediate copy. */
    public void writeLogicalDagTo(java.io.OutputStream out) throws java.io.IOException {
        out.write(logicalDag);
    }

    public JobConfig jobConfig() {
        return jobConfig;
    }

    public List<String> pluginJarsUrls() {
        return pluginJarsUrls;
    }

    public Set<ConnectorJarIdentifier> connectorJarIdentifiers() {
        return connectorJarIdentifiers;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof JobImmutableInformation)) {
            return false;
        }
        JobImmutableInformation j = (JobImmutableInformation) o;
        return jobId == j.jobId && isStartWithSavePoint == j.isStartWithSavePoint
                && createTime == j.createTime && jobName.equals(j.jobName) && Arrays.equals(logicalDag, j.logicalDag)
                && jobConfig.equals(j.jobConfig) && pluginJarsUrls.equals(j.pluginJarsUrls)
                && connectorJarIdentifiers.equals(j.connectorJarIdentifiers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobId, jobName, createTime, Arrays.hashCode(logicalDag));
    }

    @Override
    public String toString() {
        return "JobImmutableInformation{jobId=" + jobId + ", jobName=" + jobName + ", startWithSavePoint="
                + isStartWithSavePoint + ", createTime=" + createTime + ", logicalDag=" + logicalDag.length
                + " bytes, jobConfig=" + jobConfig.name() + ", pluginJars=" + pluginJarsUrls.size()
                + ", connectorJars=" + connectorJarIdentifiers.size() + '}';
    }
}
