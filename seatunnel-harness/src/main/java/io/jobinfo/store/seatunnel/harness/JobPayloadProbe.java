package io.jobinfo.store.seatunnel.harness;

import io.jobinfo.store.seatunnel.dropin.DropInService;

/**
 * Runs inside a drop-in member and returns a job's {@code JobImmutableInformation} bytes (Hazelcast {@code Data}
 * bytes) from the drop-in's store, the payload of its verified blob: what the map held inline before the drop-in
 * replaced it by a reference. Only for members that run the drop-in (the class names its {@code DropInService});
 * a missing or corrupt blob fails the call with the store's exception.
 */
public final class JobPayloadProbe extends MemberProbe<byte[]> {

    private static final long serialVersionUID = 1L;

    private final long jobId;

    public JobPayloadProbe(long jobId) {
        this.jobId = jobId;
    }

    @Override
    public byte[] call() throws Exception {
        return DropInService.forInstance(instance()).store().read(jobId).payload();
    }
}
