package io.jobinfo.store.seatunnel.harness;

import java.io.Serializable;

/** Entry counts and heap cost of one map, owned and backup, on one member or summed over the cluster. */
public record MapFigures(long ownedEntries, long ownedBytes, long backupEntries, long backupBytes)
        implements Serializable {

    public static final MapFigures ZERO = new MapFigures(0, 0, 0, 0);

    public MapFigures plus(MapFigures o) {
        return new MapFigures(ownedEntries + o.ownedEntries, ownedBytes + o.ownedBytes,
                backupEntries + o.backupEntries, backupBytes + o.backupBytes);
    }

    public MapFigures minus(MapFigures o) {
        return new MapFigures(ownedEntries - o.ownedEntries, ownedBytes - o.ownedBytes,
                backupEntries - o.backupEntries, backupBytes - o.backupBytes);
    }

    public long totalBytes() {
        return ownedBytes + backupBytes;
    }
}
