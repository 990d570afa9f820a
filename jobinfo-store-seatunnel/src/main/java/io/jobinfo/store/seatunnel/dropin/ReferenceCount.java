package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.MapValueReader;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * Asked of every member by a passive drop-in before it removes the join guard: how many of the entries this member
 * owns, of {@code engine_runningJobInfo} and of SeaTunnel's three history maps ({@link HistoryMaps}, where they
 * exist), hold a reference? The guard may go only when no member owns one: a member without the plugin could
 * otherwise join and become master of jobs it cannot read, or answer REST calls for finished jobs whose history it
 * cannot read (before, history references were not counted). A member without the plugin cannot deserialize the
 * question; the asker then leaves the guard as it is. Values are read as stored Data: nothing is instantiated.
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
        SerializationService serialization = ((SerializationServiceSupport) instance).getSerializationService();
        for (DistributedObject object : instance.getDistributedObjects()) {
            if (object instanceof IMap && HistoryMaps.ALL.contains(object.getName())) {
                @SuppressWarnings("unchecked")
                IMap<Long, Object> history = (IMap<Long, Object>) object;
                HistoryEntries entries = new HistoryEntries(history, serialization);
                for (Long jobId : history.localKeySet()) {
                    HistoryEntries.Stored stored = entries.read(jobId);
                    if (stored != null && stored.isReference()) {
                        references++;
                    }
                }
            }
        }
        return references;
    }
}
