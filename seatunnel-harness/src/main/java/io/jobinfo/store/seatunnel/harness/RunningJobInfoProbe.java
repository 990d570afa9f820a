package io.jobinfo.store.seatunnel.harness;

import com.hazelcast.map.LocalMapStats;


/**
 * Runs inside a member (through the client's {@code IExecutorService}) and returns that member's
 * {@link LocalMapStats} of a map. {@code LocalMapStats} are member-local and a Hazelcast client cannot read them
 * ({@code ClientMapProxy.getLocalMapStats} throws {@code UnsupportedOperationException}), hence the probe. Its class
 * is on every member's classpath: members run with this module's test classpath.
 */
public final class RunningJobInfoProbe extends MemberProbe<MapFigures> {

    private static final long serialVersionUID = 1L;

    private final String mapName;

    public RunningJobInfoProbe(String mapName) {
        this.mapName = mapName;
    }

    @Override
    public MapFigures call() {
        LocalMapStats stats = instance().getMap(mapName).getLocalMapStats();
        return new MapFigures(stats.getOwnedEntryCount(), stats.getOwnedEntryMemoryCost(),
                stats.getBackupEntryCount(), stats.getBackupEntryMemoryCost());
    }
}
