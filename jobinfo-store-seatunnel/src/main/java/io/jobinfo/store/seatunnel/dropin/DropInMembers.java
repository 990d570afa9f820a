package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which members run the drop-in, and in which mode: every drop-in member keeps an entry in the map
 * {@value #MAP} under its member UUID, {@code <mode> <store identity>} (plain strings), written when it starts and
 * again on every sweep, removed when it stops. Readers look up the current members only, so the entry of a member
 * that left is never taken for a running one (and the master removes such entries).
 *
 * <p>Nothing is sent to a member to ask: a stock member (no plugin jar) only stores strings, so it never logs a
 * {@code ClassNotFoundException} for a question it cannot read, as it did with the executor task this replaces. A
 * member that has just joined counts as having no drop-in until its first entry is written (within a sweep): jobs stay
 * inline meanwhile, which is the safe side.
 */
public final class DropInMembers {

    /** The map of the entries: member UUID -> {@code <mode> <store identity>}. */
    public static final String MAP = io.jobinfo.store.seatunnel.SeaTunnelJobInfoFormat.DROP_IN_MEMBERS;

    private DropInMembers() {
    }

    /** Writes this member's entry (at start and on every sweep, so a lost partition heals). */
    static void register(HazelcastInstance member, DropInSettings.Mode mode, String storeIdentity) {
        map(member).set(member.getCluster().getLocalMember().getUuid().toString(),
                mode.name().toLowerCase(Locale.ROOT) + " " + storeIdentity);
    }

    /** Removes this member's entry (best effort: the member may be leaving). */
    static void unregister(HazelcastInstance member) {
        try {
            map(member).delete(member.getCluster().getLocalMember().getUuid().toString());
        } catch (RuntimeException leaving) {
            // readers look up current members only
        }
    }

    /** Removes the entries of members that are no longer in the cluster (the master, on its sweep). */
    static void forgetDeparted(HazelcastInstance member) {
        Set<String> current = new HashSet<>();
        for (Member m : member.getCluster().getMembers()) {
            current.add(m.getUuid().toString());
        }
        IMap<String, String> map = map(member);
        for (String uuid : map.keySet()) {
            if (!current.contains(uuid)) {
                map.delete(uuid);
            }
        }
    }

    /**
     * The drop-in mode ({@code active} or {@code passive}) of every current member, in the cluster's order, or
     * {@code null} for a member that runs no drop-in (no plugin jar, or not started yet). Works from a client too.
     */
    public static Map<Member, String> modes(HazelcastInstance instance) {
        Set<Member> members = instance.getCluster().getMembers();
        Set<String> keys = new HashSet<>();
        for (Member m : members) {
            keys.add(m.getUuid().toString());
        }
        Map<String, String> entries = map(instance).getAll(keys);
        Map<Member, String> modes = new LinkedHashMap<>();
        for (Member m : members) {
            String entry = entries.get(m.getUuid().toString());
            modes.put(m, entry == null ? null : entry.split(" ", 2)[0]);
        }
        return modes;
    }

    private static IMap<String, String> map(HazelcastInstance instance) {
        return instance.getMap(MAP);
    }
}
