package io.jobinfo.store.it;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.UUID;

/** One Hazelcast member in the test JVM, for tests whose faults are in the backend, not in the cluster. */
final class InJvmMember {

    private InJvmMember() {
    }

    /** A single member on {@code port} (in the suite's range 5701-5799) with a cluster name of its own. */
    static HazelcastInstance start(String prefix, int port) {
        return Hazelcast.newHazelcastInstance(MemberMain.memberConfig(prefix + "-" + UUID.randomUUID(), port, port,
                1));
    }
}
