package io.jobinfo.store.seatunnel.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Each member's live heap after a full GC ({@link LiveHeapProbe}), by member, the master marked. */
final class MemberHeaps {

    private MemberHeaps() {}

    /** One row per live member: {@code member} (index), {@code port}, {@code master}, {@code liveHeapBytes}. */
    static List<Map<String, Object>> of(ClusterClient client, SeaTunnelProcessCluster cluster) {
        int masterPort = client.masterPort();
        List<Map<String, Object>> rows = new ArrayList<>();
        client.onEveryMember(new LiveHeapProbe()).forEach((port, bytes) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("member", cluster.indexOfPort(port));
            row.put("port", port);
            row.put("master", port == masterPort);
            row.put("liveHeapBytes", bytes);
            rows.add(row);
        });
        return rows;
    }

    /** The sum of {@code liveHeapBytes} over the rows. */
    static long total(List<Map<String, Object>> rows) {
        return rows.stream().mapToLong(r -> ((Number) r.get("liveHeapBytes")).longValue()).sum();
    }
}
