package io.jobinfo.store.seatunnel.harness;

import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.SerializationServiceSupport;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Runs inside one member and retains {@code count} more finished jobs in SeaTunnel's three history maps, as
 * SeaTunnel's {@code JobHistoryService} would after that many jobs ended: for each map, the values of real finished
 * template jobs are read (on a drop-in member through its resolver, as REST reads them), copied (serialized and
 * deserialized by the member's own serialization service), given the new job id where the value records one
 * ({@code JobState.jobId}, {@code JobDAGInfo.jobId}; {@code JobMetrics} names none) and put under ids
 * {@code firstId .. firstId + count - 1} with the TTL given, job {@code i} taking template {@code i % templates}.
 * Used by the history scenario ({@link HistoryScenario}) because ten thousand real batch jobs would take hours here.
 *
 * <p>Fails (an exception to the caller) if a template job has no value in a map, or a put fails.
 */
public final class HistoryCopyProbe extends MemberProbe<Integer> {

    private static final long serialVersionUID = 1L;
    /** Puts in flight at once. */
    static final int WINDOW = 256;

    private final long[] templateIds;
    private final long firstId;
    private final int count;
    private final long ttlMillis;

    public HistoryCopyProbe(long[] templateIds, long firstId, int count, long ttlMillis) {
        this.templateIds = templateIds.clone();
        this.firstId = firstId;
        this.count = count;
        this.ttlMillis = ttlMillis;
    }

    @Override
    public Integer call() throws Exception {
        SerializationService ss = ((SerializationServiceSupport) instance()).getSerializationService();
        for (String name : HistoryScenario.MAPS) {
            IMap<Long, Object> map = instance().getMap(name);
            Object[] templates = new Object[templateIds.length];
            for (int t = 0; t < templateIds.length; t++) {
                templates[t] = map.get(templateIds[t]);
                if (templates[t] == null) {
                    throw new IllegalStateException(name + " holds no value of the template job " + templateIds[t]);
                }
            }
            List<CompletionStage<Void>> inFlight = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                long id = firstId + i;
                Object copy = ss.toObject(ss.toData(templates[i % templates.length]));
                setJobId(copy, id);
                inFlight.add(map.setAsync(id, copy, ttlMillis, TimeUnit.MILLISECONDS));
                if (inFlight.size() == WINDOW) {
                    drain(inFlight);
                }
            }
            drain(inFlight);
        }
        return count;
    }

    private static void drain(List<CompletionStage<Void>> inFlight) {
        for (CompletionStage<Void> f : inFlight) {
            f.toCompletableFuture().join();
        }
        inFlight.clear();
    }

    /** Sets the value's own {@code jobId} field (long or Long) if its class has one. */
    static void setJobId(Object value, long id) throws IllegalAccessException {
        for (Class<?> c = value.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField("jobId");
                f.setAccessible(true);
                f.set(value, f.getType() == long.class ? (Object) id : Long.valueOf(id));
                return;
            } catch (NoSuchFieldException next) {
                // look in the superclass
            }
        }
    }
}
