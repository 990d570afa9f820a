package io.jobinfo.store.seatunnel.it.cluster;

import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.seatunnel.dropin.DropInService;
import io.jobinfo.store.seatunnel.harness.MemberProbe;
import io.jobinfo.store.spi.StoredBlob;

import java.util.ArrayList;

/**
 * Runs inside a member and lists everything its drop-in's store holds ({@code JobInfoStore.list()}, on the executor
 * thread that runs the probe): a complete blob as {@code <16 hex digits of its job id>.jobinfo}, the name the crash
 * trials' orphan audit uses for every backend, and anything the store reports incomplete (a leftover of an interrupted
 * write) as {@code incomplete <location>}. For a backend the test JVM cannot reach by itself (HDFS: the test JVM has no
 * Hadoop). A store that cannot be listed fails the probe with the store's exception.
 */
public final class StoreFilesProbe extends MemberProbe<ArrayList<String>> {

    private static final long serialVersionUID = 1L;

    @Override
    public ArrayList<String> call() throws Exception {
        ArrayList<String> out = new ArrayList<>();
        for (StoredBlob blob : DropInService.forInstance(instance()).store().list()) {
            out.add(blob.incomplete() ? "incomplete " + blob.location() : StoreNaming.blobName(blob.jobId()));
        }
        return out;
    }
}
