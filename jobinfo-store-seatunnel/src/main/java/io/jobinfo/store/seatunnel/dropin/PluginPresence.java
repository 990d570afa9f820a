package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * Asked of another member before a job is moved: does it run the drop-in? A member without the plugin jar cannot
 * even deserialize this task (the call fails), one with it answers whether its {@link DropInService} exists. A job is
 * only replaced by a reference when every member answers yes, so a cluster where a stock member is still running (a
 * rolling adoption) keeps every job inline and readable by that member. {@code jobinfo-store migrate} asks the same of
 * every member before it writes references into SeaTunnel's map.
 */
public final class PluginPresence implements Callable<Boolean>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;
    /** The executor the question runs on. */
    public static final String EXECUTOR = "jobinfo-store-dropin";

    private transient HazelcastInstance instance;

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public Boolean call() {
        return DropInService.forInstance(instance) != null;
    }
}
