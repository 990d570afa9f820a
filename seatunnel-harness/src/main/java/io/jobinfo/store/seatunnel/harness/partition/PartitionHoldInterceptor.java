package io.jobinfo.store.seatunnel.harness.partition;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.MapInterceptor;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A measuring instrument, not part of the drop-in: a {@link MapInterceptor} the test adds to
 * {@code engine_runningJobInfo} (Hazelcast copies it to every member). Hazelcast calls {@code interceptPut},
 * {@code interceptGet} and {@code interceptRemove} on the partition thread that runs the operation, inside the record
 * store, and {@code afterPut}, {@code afterGet}, {@code afterRemove} on the same thread once the record store has done
 * its work (the value stored, SeaTunnel's map-store write-through when IMap persistence is on). Per operation it
 * records:
 * <ul>
 *   <li>{@code spanNanos}: from its {@code intercept*} to its {@code after*}, i.e. the record-store work;</li>
 *   <li>{@code chainNanos}: the (de)serialization Hazelcast does on the partition thread because the map has
 *   interceptors at all (this one, while it measures; the drop-in adds none to this map): before calling any interceptor Hazelcast
 *   deserializes the new and the old value ({@code toObject}), and stores, or answers, the deserialized object, which
 *   it serializes again. That happens before the first interceptor is called, so it cannot be timed from here;
 *   instead the probe repeats it on the same values on the same thread and times the repetition (before
 *   {@code spanNanos} starts, so the span does not include it).</li>
 * </ul>
 * Their sum is the partition-thread hold of the operation, less the operation's own dispatch, backup sending and
 * response, which do not depend on the value's size. The samples stay in the member's JVM until
 * {@link PartitionHoldReport} collects them. The class must be on every member's class path (the harness jar is: see
 * {@code SeaTunnelProcessCluster#memberClasspath}); a member without it fails the {@code addInterceptor} call.
 */
public final class PartitionHoldInterceptor implements MapInterceptor {

    private static final long serialVersionUID = 1L;

    /** One measured operation. {@code kind}: inline (the job's bytes), reference (the drop-in's), or none. */
    public record Sample(String op, String kind, long valueBytes, long spanNanos, long chainNanos, String thread)
            implements Serializable {
    }

    static final ConcurrentLinkedQueue<Sample> SAMPLES = new ConcurrentLinkedQueue<>();
    private static final ThreadLocal<long[]> OPEN = new ThreadLocal<>();
    private static final ThreadLocal<Object[]> WHAT = new ThreadLocal<>();
    private static final int REFERENCE_TYPE_ID = 0x4A495331;

    @Override
    public Object interceptGet(Object value) {
        open("get", value, null);
        return null;
    }

    @Override
    public void afterGet(Object value) {
        close();
    }

    @Override
    public Object interceptPut(Object oldValue, Object newValue) {
        open("put", newValue, oldValue);
        return null;
    }

    @Override
    public void afterPut(Object value) {
        close();
    }

    @Override
    public Object interceptRemove(Object removedValue) {
        open("remove", removedValue, null);
        return null;
    }

    @Override
    public void afterRemove(Object oldValue) {
        close();
    }

    private static void open(String op, Object value, Object old) {
        long chain = 0;
        SerializationService ss = serialization();
        if (ss != null && value != null) {
            long t0 = System.nanoTime();
            Data d = ss.toData(value);
            ss.toObject(d);
            chain = System.nanoTime() - t0;
            if (old != null) {
                Data o = ss.toData(old);
                long t1 = System.nanoTime();
                ss.toObject(o);
                chain += System.nanoTime() - t1;
            }
        }
        WHAT.set(new Object[] {op, kindOf(value), bytesOf(value)});
        OPEN.set(new long[] {chain, System.nanoTime()});
    }

    private static void close() {
        long[] open = OPEN.get();
        Object[] what = WHAT.get();
        if (open == null || what == null) {
            return;
        }
        OPEN.remove();
        WHAT.remove();
        SAMPLES.add(new Sample((String) what[0], (String) what[1], (Long) what[2], System.nanoTime() - open[1],
                open[0], Thread.currentThread().getName()));
    }

    private static String kindOf(Object value) {
        if (!(value instanceof JobInfo) || ((JobInfo) value).getJobImmutableInformation() == null) {
            return "none";
        }
        return ((JobInfo) value).getJobImmutableInformation().getType() == REFERENCE_TYPE_ID ? "reference" : "inline";
    }

    private static long bytesOf(Object value) {
        if (!(value instanceof JobInfo) || ((JobInfo) value).getJobImmutableInformation() == null) {
            return 0L;
        }
        return ((JobInfo) value).getJobImmutableInformation().totalSize();
    }

    private static volatile SerializationService serialization;

    private static SerializationService serialization() {
        SerializationService ss = serialization;
        if (ss == null) {
            for (HazelcastInstance hz : Hazelcast.getAllHazelcastInstances()) {
                if (hz instanceof SerializationServiceSupport) {
                    ss = ((SerializationServiceSupport) hz).getSerializationService();
                    serialization = ss;
                    break;
                }
            }
        }
        return ss;
    }

    /** Takes every sample recorded in this JVM so far. */
    public static List<Sample> drain() {
        List<Sample> out = new ArrayList<>();
        Sample s;
        while ((s = SAMPLES.poll()) != null) {
            out.add(s);
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionHoldInterceptor;
    }

    @Override
    public int hashCode() {
        return 0x50484931;
    }
}
