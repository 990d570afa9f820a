package io.jobinfo.store.seatunnel.it.cluster;

/** Runs inside a member and answers how many members its own cluster view holds. */
public final class MemberCountProbe extends MemberProbe<Integer> {

    private static final long serialVersionUID = 1L;

    @Override
    public Integer call() {
        return instance().getCluster().getMembers().size();
    }
}
