package io.jobinfo.store.lifecycle;

import io.jobinfo.store.spi.StoredBlob;
import java.util.ArrayList;
import java.util.List;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Which cluster a store namespace belongs to. Two clusters on one namespace would each take the other's blobs for
 * orphans (no entry in <em>their</em> map) and delete them, so the first cluster to start writes a claim into the
 * namespace and every other cluster refuses to start on it.
 *
 * <p>The claim is a blob under the reserved job id {@link #JOB_ID} ({@code 8000000000000000.jobinfo}), written once
 * like every blob, whose payload is {@code cluster=<Hazelcast cluster name>} (codec id {@link #CODEC_ID}). Members of
 * one cluster write identical bytes, so concurrent first starts agree. A cluster is told apart by its Hazelcast
 * cluster name: two clusters of one name on one namespace are not detected (give each cluster its own name). A
 * namespace moved on purpose to another cluster: delete the claim blob (its location is in the refusal) and start.
 * GC and verify never take the claim for an orphan ({@code OrphanRule}).
 *
 * <p>Failure: {@link #claim} throws {@link NamespaceClaimedException} when another cluster holds the namespace, and
 * {@link JobInfoStoreException} when the store cannot be read or written (the caller refuses to start either way).
 */
public final class NamespaceClaim {

    /** The reserved job id of the claim blob; SeaTunnel's job ids (and the library's) are positive. */
    public static final long JOB_ID = Long.MIN_VALUE;
    /** The codec id of the claim's payload (not a job: no job codec uses it). */
    public static final int CODEC_ID = 0xC1A1;
    /** The claim blob's name in the namespace ({@code 8000000000000000.jobinfo}). */
    public static final String BLOB_NAME = io.jobinfo.store.spi.StoreNaming.blobName(JOB_ID);
    private static final String PREFIX = "cluster=";
    private static final int MAX_NAME_BYTES = 1024;

    private NamespaceClaim() {
    }

    /** Whether {@code jobId} is the claim's reserved id (never a job, never an orphan). */
    public static boolean isClaim(long jobId) {
        return jobId == JOB_ID;
    }

    /**
     * The blobs of a listing that belong to jobs: without the claim blob, which tools neither count nor report (it is
     * no job, never an orphan).
     */
    public static List<StoredBlob> jobsOnly(List<StoredBlob> listed) {
        List<StoredBlob> jobs = new ArrayList<>(listed.size());
        for (StoredBlob b : listed) {
            if (!isClaim(b.jobId())) {
                jobs.add(b);
            }
        }
        return jobs;
    }

    /**
     * Claims {@code store}'s namespace for the cluster {@code clusterName}, or checks that it already holds it.
     *
     * @throws NamespaceClaimedException another cluster holds the namespace (the message names it and the claim)
     * @throws JobInfoStoreException     the store failed, or the claim blob is damaged
     */
    public static void claim(JobInfoStore store, String clusterName) throws JobInfoStoreException {
        Objects.requireNonNull(clusterName, "clusterName");
        byte[] payload = (PREFIX + clusterName).getBytes(StandardCharsets.UTF_8);
        if (payload.length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("cluster name longer than " + MAX_NAME_BYTES + " bytes");
        }
        String holder;
        try {
            holder = holder(store);
        } catch (BlobNotFoundException none) {
            try {
                store.create(JOB_ID, BlobSource.ofBytes(BlobEnvelope.wrap(JOB_ID, CODEC_ID, payload)));
                return;
            } catch (BlobAlreadyExistsException raced) {
                holder = holder(store); // another cluster's member won the first claim
            }
        }
        if (!holder.equals(clusterName)) {
            throw new NamespaceClaimedException("the store namespace " + store.location(JOB_ID).parent()
                    + " belongs to the cluster '" + holder + "', not to this cluster '" + clusterName + "': two clusters on one namespace would delete each"
                    + " other's jobs. Give this cluster a namespace of its own; if '" + holder + "' is gone for good"
                    + " and its jobs with it, delete the claim " + store.location(JOB_ID) + " and start again",
                    store.location(JOB_ID));
        }
    }

    /** The cluster name in the claim blob. */
    private static String holder(JobInfoStore store) throws JobInfoStoreException {
        byte[] payload = store.read(JOB_ID).payload();
        String text = new String(payload, StandardCharsets.UTF_8);
        if (!text.startsWith(PREFIX)) {
            throw new JobInfoStoreException("the namespace claim is not one (it should start with '" + PREFIX
                    + "'); delete it and start again", JOB_ID, store.location(JOB_ID));
        }
        return text.substring(PREFIX.length());
    }
}
