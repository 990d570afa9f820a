package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.IMap;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.MapValueReader;
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
        MapValueReader values = BadValues.reader(map);
        long references = 0;
        for (Long jobId : map.localKeySet()) {
            // read as stored Data: nothing is instantiated from a class a value names; a bad value holds none
            MapValue value = values.read(jobId);
            if (value.decoded() && value.value() instanceof JobInfo
                    && JobInfoMover.isReference(((JobInfo) value.value()).getJobImmutableInformation())) {
                references++;
            }
        }
        return references;
    }
}
