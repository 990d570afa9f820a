package io.jobinfo.store.seatunnel.harness;



/**
 * Runs inside a member: whether every partition has its owner and backups in place ({@code isClusterSafe}), that is,
 * whether the cluster survives the loss of one more member (backup-count 1).
 */
public final class ClusterSafeProbe extends MemberProbe<Boolean> {

    private static final long serialVersionUID = 1L;

    @Override
    public Boolean call() {
        return instance().getPartitionService().isClusterSafe();
    }
}
