package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.Serializable;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Asked of a member by {@code jobinfo-store migrate --rollback}: in which mode does its drop-in run? Answers
 * {@code active}, {@code passive}, or {@code none} (the jar is there but no drop-in runs); a member without the plugin
 * jar cannot deserialize the question (the call fails: no drop-in). A rollback refuses while any member is active: an
 * active member moves the inline jobs straight back to the store.
 */
public final class DropInModeProbe implements Callable<String>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;

    private transient HazelcastInstance instance;

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public String call() {
        DropInService service = DropInService.forInstance(instance);
        return service == null ? "none" : service.settings().mode().name().toLowerCase(Locale.ROOT);
    }
}
