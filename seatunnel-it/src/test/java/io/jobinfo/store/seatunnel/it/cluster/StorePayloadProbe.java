package io.jobinfo.store.seatunnel.it.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import io.jobinfo.store.seatunnel.dropin.DropInService;

import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * Runs inside a member and reads one job's blob through its drop-in's store, fully verified
 * ({@code JobInfoStore.read}): the job's {@code JobImmutableInformation} bytes as the blob holds them. Fails with the
 * store's exception if the blob is missing or damaged.
 */
public final class StorePayloadProbe implements Callable<byte[]>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;
    private final long jobId;
    private transient HazelcastInstance instance;

    public StorePayloadProbe(long jobId) {
        this.jobId = jobId;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public byte[] call() throws Exception {
        return DropInService.forInstance(instance).store().read(jobId).payload();
    }

    @Override
    public String toString() {
        return "StorePayloadProbe(job " + jobId + ")";
    }
}
