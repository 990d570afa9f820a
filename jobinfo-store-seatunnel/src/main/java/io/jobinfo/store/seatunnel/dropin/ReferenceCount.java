package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.IMap;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * Asked of every member by a passive drop-in before it removes the join guard: how many of the entries of
 * {@code engine_runningJobInfo} this member owns hold a reference? The guard may go only when no member owns one (a
 * member without the plugin could otherwise join and become master of jobs it cannot read). A member without the
 * plugin cannot deserialize the question; the asker then leaves the guard as it is.
 */
final class ReferenceCount implements Callable<Long>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;

    private transient HazelcastInstance instance;

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public Long call() {
        IMap<Long, JobInfo> map = instance.getMap(JobInfoMover.MAP);
        long references = 0;
        for (Long jobId : map.localKeySet()) {
            JobInfo value = map.get(jobId);
            if (value != null && JobInfoMover.isReference(value.getJobImmutableInformation())) {
                references++;
            }
        }
        return references;
    }
}
