package io.jobinfo.store.seatunnel.harness;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * A task the tests send to one member (through the cluster's executor service) to read what only the member can see:
 * Hazelcast serializes it to the member, gives it that member's instance ({@link #instance()}) and runs {@link #call}
 * there. The probe's class must be on the members' classpath (members run with the harness's and the tests' classes).
 *
 * @param <T> what the probe returns (serializable)
 */
public abstract class MemberProbe<T> implements Callable<T>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;
    private transient HazelcastInstance instance;

    @Override
    public final void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    /** The member this probe runs on; {@code null} until Hazelcast has handed it over. */
    protected final HazelcastInstance instance() {
        return instance;
    }
}
