package io.jobinfo.store.seatunnel.it.cluster;

import io.jobinfo.store.seatunnel.dropin.DropInService;
import io.jobinfo.store.seatunnel.harness.MemberProbe;
import io.jobinfo.store.spi.StoredBlob;

import java.util.HashMap;

/**
 * Runs inside a member and lists its drop-in's store ({@code JobInfoStore.list()}, on the executor thread that runs
 * the probe, never a partition thread): job id -> size in bytes of every complete blob. For a backend the test JVM
 * cannot reach by itself (HDFS: the test JVM has no Hadoop). A store that cannot be listed fails the probe with the
 * store's exception.
 */
public final class StoreListProbe extends MemberProbe<HashMap<Long, Long>> {

    private static final long serialVersionUID = 1L;

    @Override
    public HashMap<Long, Long> call() throws Exception {
        HashMap<Long, Long> out = new HashMap<>();
        for (StoredBlob blob : DropInService.forInstance(instance()).store().list()) {
            if (!blob.incomplete()) {
                out.put(blob.jobId(), blob.sizeBytes());
            }
        }
        return out;
    }
}
