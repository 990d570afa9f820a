package io.jobinfo.store.benchmarks;

import com.hazelcast.core.HazelcastInstance;
import io.jobinfo.store.demo.embedded.InJvmCluster;
import io.jobinfo.store.spi.JobInfoStore;

/**
 * A pointer run's cluster in this JVM (on {@link BenchmarkMain#CLUSTER_PORT}): its master and the successor that
 * takes over when the master is killed, each with a store of the run's backend on the run's namespace.
 */
record PointerCluster(InJvmCluster cluster, HazelcastInstance master, HazelcastInstance successor,
                      JobInfoStore masterStore, JobInfoStore successorStore) {

    /** What a run does on the cluster. */
    @FunctionalInterface
    interface Run {
        void on(PointerCluster c) throws Exception;
    }

    /**
     * Clears {@code ns} on {@code backend}, starts a cluster of {@code members} named {@code name} and opens the two
     * stores, runs {@code run}, then closes them and the cluster and clears {@code ns} again (also when it fails).
     */
    static void run(int members, String name, Backend backend, String ns, Run run) throws Exception {
        backend.clear(ns);
        try (InJvmCluster cluster = new InJvmCluster(members, BenchmarkMain.CLUSTER_PORT, name);
             JobInfoStore masterStore = backend.open(ns);
             JobInfoStore successorStore = backend.open(ns)) {
            run.on(new PointerCluster(cluster, cluster.master(), cluster.successor(), masterStore, successorStore));
        } finally {
            backend.clear(ns);
        }
    }
}
