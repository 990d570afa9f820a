package io.jobinfo.store.cli.ops;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.jobinfo.store.seatunnel.dropin.DropInMembers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What {@code migrate --value-format seatunnel} checks of the members before it touches SeaTunnel's map, read from
 * the drop-in's own member registry ({@link DropInMembers}): nothing is sent to a member, so a stock member logs no
 * error for a question it could not read.
 */
final class DropInPresence {

    private DropInPresence() {
    }

    /**
     * Before {@code migrate} writes references: every member must run the drop-in, or a member without it (a rolling
     * adoption not finished) could become master of jobs it cannot read.
     *
     * @throws OpsException (exit 2, nothing changed) naming every member that does not run the drop-in
     */
    static void requireEverywhere(HazelcastInstance client) {
        List<String> missing = membersWhose(client, mode -> mode == null);
        if (!missing.isEmpty()) {
            throw new OpsException(ExitCodes.USAGE, "members " + missing + " do not run the jobinfo-store"
                    + " drop-in (no plugin jar in lib/, or no jobinfo-storage section); a member without it could"
                    + " not read the references migrate writes: restart every member with the plugin first"
                    + " (docs/seatunnel.md); nothing was changed");
        }
    }

    /**
     * Before {@code migrate --rollback}: no member may run the drop-in in active mode, which would move the inline
     * jobs straight back to the store.
     *
     * @throws OpsException (exit 2, nothing changed) naming every active member and what to do
     */
    static void requireNoneActive(HazelcastInstance client) {
        List<String> active = membersWhose(client, "active"::equals);
        if (!active.isEmpty()) {
            throw new OpsException(ExitCodes.USAGE, "members " + active + " run the jobinfo-store drop-in"
                    + " in active mode, which moves inline jobs straight back to the store: restart every member with"
                    + " seatunnel.engine.jobinfo-dropin.mode: passive first (docs/seatunnel.md, removal); nothing was"
                    + " changed");
        }
    }

    /** The addresses of the members whose drop-in mode ({@code null}: no drop-in) {@code mode} accepts. */
    private static List<String> membersWhose(HazelcastInstance client, Predicate<String> mode) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Member, String> e : modes(client).entrySet()) {
            if (mode.test(e.getValue())) {
                out.add(e.getKey().getAddress().toString());
            }
        }
        return out;
    }

    private static Map<Member, String> modes(HazelcastInstance client) {
        try {
            return DropInMembers.modes(client);
        } catch (RuntimeException e) {
            throw new OpsException(ExitCodes.UNREACHABLE, "reading which members run the jobinfo-store"
                    + " drop-in (map " + DropInMembers.MAP + ") failed: " + e + "; nothing was changed");
        }
    }
}
