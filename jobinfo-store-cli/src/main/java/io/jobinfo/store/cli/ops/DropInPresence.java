package io.jobinfo.store.cli.ops;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.jobinfo.store.cli.JobInfoStoreCli;
import io.jobinfo.store.seatunnel.dropin.DropInModeProbe;
import io.jobinfo.store.seatunnel.dropin.PluginPresence;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Before {@code migrate --value-format seatunnel} writes references into SeaTunnel's map: every member must run the
 * jobinfo-store drop-in, or a member without it (a rolling adoption not finished) could become master of jobs it
 * cannot read. Asked of each member with {@link PluginPresence}; a stock member cannot even deserialize the question.
 */
final class DropInPresence {

    private DropInPresence() {
    }

    /**
     * @throws OpsException (exit 2, nothing changed) naming every member that does not run the drop-in
     */
    static void requireEverywhere(HazelcastInstance client) {
        List<String> missing = new ArrayList<>();
        for (Member member : client.getCluster().getMembers()) {
            boolean present;
            try {
                present = client.getExecutorService(PluginPresence.EXECUTOR)
                        .submitToMember(new PluginPresence(), member).get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OpsException(JobInfoStoreCli.EXIT_UNREACHABLE, "interrupted while asking " + member
                        + " whether it runs the jobinfo-store drop-in; nothing was changed");
            } catch (Exception e) {
                present = false;
            }
            if (!present) {
                missing.add(member.getAddress().toString());
            }
        }
        if (!missing.isEmpty()) {
            throw new OpsException(JobInfoStoreCli.EXIT_USAGE, "members " + missing + " do not run the jobinfo-store"
                    + " drop-in (no plugin jar in lib/, or no jobinfo-storage section); a member without it could"
                    + " not read the references migrate writes: restart every member with the plugin first"
                    + " (docs/seatunnel.md); nothing was changed");
        }
    }

    /**
     * Before {@code migrate --rollback} on SeaTunnel's map: no member may run the drop-in in active mode, which would
     * move the inline jobs straight back to the store. A member without the plugin cannot answer: it runs no drop-in.
     *
     * @throws OpsException (exit 2, nothing changed) naming every active member and what to do
     */
    static void requireNoneActive(HazelcastInstance client) {
        List<String> active = new ArrayList<>();
        for (Member member : client.getCluster().getMembers()) {
            String mode;
            try {
                mode = client.getExecutorService(PluginPresence.EXECUTOR)
                        .submitToMember(new DropInModeProbe(), member).get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OpsException(JobInfoStoreCli.EXIT_UNREACHABLE, "interrupted while asking " + member
                        + " for its drop-in's mode; nothing was changed");
            } catch (Exception e) {
                mode = "none"; // a member without the plugin jar cannot even read the question
            }
            if ("active".equals(mode)) {
                active.add(member.getAddress().toString());
            }
        }
        if (!active.isEmpty()) {
            throw new OpsException(JobInfoStoreCli.EXIT_USAGE, "members " + active + " run the jobinfo-store drop-in"
                    + " in active mode, which moves inline jobs straight back to the store: restart every member with"
                    + " seatunnel.engine.jobinfo-dropin.mode: passive first (docs/seatunnel.md, removal); nothing was"
                    + " changed");
        }
    }
}
