package io.jobinfo.store.seatunnel.it.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * Runs inside a member: whether every partition has its owner and backups in place ({@code isClusterSafe}), that is,
 * whether the cluster survives the loss of one more member (backup-count 1).
 */
public final class ClusterSafeProbe implements Callable<Boolean>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;
    private transient HazelcastInstance instance;

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public Boolean call() {
        return instance.getPartitionService().isClusterSafe();
    }
}
