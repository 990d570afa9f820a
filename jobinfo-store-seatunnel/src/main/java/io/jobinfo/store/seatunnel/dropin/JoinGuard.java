package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.logging.ILogger;
import com.hazelcast.map.IMap;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Keeps members that could not read references out of a cluster that holds them, with the
 * {@link JoinGuardInterceptor} on a map of its own ({@value #GUARD_MAP}), and tells the mover whether every member runs
 * the drop-in.
 * <ul>
 *   <li>Active mode: the guard is installed at start and, while that fails (a member without the plugin is in the
 *   cluster and cannot deserialize it), at every sweep.</li>
 *   <li>Passive mode: the guard stays (or is installed) while any member owns an entry holding a reference, and is
 *   removed once none does ({@link ReferenceCount}), so members without the plugin can join only a cluster whose jobs
 *   they can read. While a member without the drop-in is in the cluster, nothing changes and nothing is asked of it.
 *   </li>
 * </ul>
 * At start it also takes an earlier build's guard off {@code engine_runningJobInfo}, where an interceptor made Hazelcast
 * deserialize every value put and read on the partition thread.
 *
 * <p>Called from the drop-in's sweeper and mover threads, never from a partition thread. Failure: nothing here throws;
 * a failed install or removal is logged and tried again at the next {@link #check}.
 */
final class JoinGuard {

    /**
     * The map that carries the {@link JoinGuardInterceptor}, and holds no entry: Hazelcast hands the interceptors of
     * every map to a joining member, so the guard works from any map, and on this one it costs no job operation
     * anything. (Builds before this one put it on {@code engine_runningJobInfo}.)
     */
    static final String GUARD_MAP = "jobinfo-store-join-guard";

    private final HazelcastInstance instance;
    private final IMap<Long, ?> runningJobs;
    private final DropInSettings settings;
    private final DropInMetrics metrics;
    private final ILogger logger;
    private final String storeIdentity;
    private volatile boolean installed;
    private volatile long lastMissingWarning;
    private volatile long lastMembersCheck;
    private volatile Set<Member> lastMembersChecked;
    private volatile Member lastMissingMember;

    JoinGuard(HazelcastInstance instance, IMap<Long, ?> runningJobs, DropInSettings settings, DropInMetrics metrics,
              ILogger logger, String storeIdentity) {
        this.instance = instance;
        this.runningJobs = runningJobs;
        this.settings = settings;
        this.metrics = metrics;
        this.logger = logger;
        this.storeIdentity = storeIdentity;
    }

    /** At the member's start: {@link #check}, then the earlier build's guard off the running-job map. */
    void start() {
        check();
        removeLegacyGuard();
    }

    /** Installs or removes the guard as the mode and the map's references want it (see the class comment). */
    void check() {
        if (settings.mode() == DropInSettings.Mode.PASSIVE) {
            passiveGuard();
        } else {
            install();
        }
    }

    /**
     * Whether every other member runs the drop-in ({@link DropInMembers}). While one does not, no job is moved: it
     * could become master and would not read references. A missing member is warned about at most once a minute.
     */
    boolean everyMemberHasThePlugin() {
        Member missing = firstMemberWithoutTheDropIn();
        if (missing == null) {
            return true;
        }
        metrics.blockedByMemberWithoutPlugin.incrementAndGet();
        long now = System.currentTimeMillis();
        if (now - lastMissingWarning > 60_000) {
            lastMissingWarning = now;
            logger.warning("member " + missing + " does not run the jobinfo-store drop-in (no plugin jar): jobs stay"
                    + " inline in " + runningJobs.getName() + " until every member has it");
        }
        return false;
    }

    /**
     * Adds the {@link JoinGuardInterceptor} to {@value #GUARD_MAP}. It fails while a member without the plugin is in
     * the cluster (that member cannot deserialize it): the next check tries again; jobs stay inline meanwhile.
     */
    private void install() {
        if (installed) {
            return;
        }
        try {
            instance.getMap(GUARD_MAP).addInterceptor(new JoinGuardInterceptor(storeIdentity));
            installed = true;
        } catch (RuntimeException e) {
            logger.warning("the join guard (" + GUARD_MAP + ") could not be installed on every member (" + e
                    + "); a member without the jobinfo-store plugin, or one whose jobinfo-storage names another store,"
                    + " is in the cluster: jobs stay inline");
        }
    }

    private void passiveGuard() {
        if (firstMemberWithoutTheDropIn() != null) {
            return; // a member without the drop-in is in: nothing is asked of it, and no guard could be installed
        }
        long references = 0;
        try {
            for (Future<Long> answer : instance.getExecutorService(JobInfoMover.EXECUTOR)
                    .submitToAllMembers(new ReferenceCount()).values()) {
                references += answer.get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        if (references > 0) {
            install();
        } else {
            remove();
        }
    }

    /** Removes the guard from every member (passive mode). Failures are logged; the next check tries again. */
    private void remove() {
        try {
            instance.getMap(GUARD_MAP).removeInterceptor(JoinGuardInterceptor.ID);
            installed = false;
        } catch (RuntimeException e) {
            logger.warning("the join guard (" + GUARD_MAP + ") could not be removed (" + e
                    + "); retrying at the next sweep");
        }
    }

    private void removeLegacyGuard() {
        String map = runningJobs.getName();
        try {
            if (runningJobs.removeInterceptor(JoinGuardInterceptor.ID)) {
                logger.info("the join guard of an earlier jobinfo-store build is taken off " + map + " (it is on "
                        + GUARD_MAP + " now)");
            }
        } catch (RuntimeException e) {
            logger.warning("the join guard of an earlier jobinfo-store build could not be taken off " + map + " (" + e
                    + ")");
        }
    }

    /** A current member with no drop-in entry, or null; the lookup is cached for a sweep interval. */
    private Member firstMemberWithoutTheDropIn() {
        long now = System.currentTimeMillis();
        if (now - lastMembersCheck < settings.sweepIntervalMillis() && instance.getCluster().getMembers().equals(
                lastMembersChecked)) {
            return lastMissingMember;
        }
        Member missing = null;
        for (Map.Entry<Member, String> e : DropInMembers.modes(instance).entrySet()) {
            if (e.getValue() == null && !e.getKey().localMember()) {
                missing = e.getKey();
                break;
            }
        }
        lastMembersChecked = instance.getCluster().getMembers();
        lastMissingMember = missing;
        lastMembersCheck = now;
        return missing;
    }
}
