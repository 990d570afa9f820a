package io.jobinfo.store.seatunnel.it.cluster;

import io.jobinfo.store.seatunnel.dropin.DropInService;
import io.jobinfo.store.seatunnel.harness.MemberProbe;


/**
 * Runs inside a member and reads one job's blob through its drop-in's store, fully verified
 * ({@code JobInfoStore.read}): the job's {@code JobImmutableInformation} bytes as the blob holds them. Fails with the
 * store's exception if the blob is missing or damaged.
 */
public final class StorePayloadProbe extends MemberProbe<byte[]> {

    private static final long serialVersionUID = 1L;
    private final long jobId;

    public StorePayloadProbe(long jobId) {
        this.jobId = jobId;
    }

    @Override
    public byte[] call() throws Exception {
        return DropInService.forInstance(instance()).store().read(jobId).payload();
    }

    @Override
    public String toString() {
        return "StorePayloadProbe(job " + jobId + ")";
    }
}
