package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.map.MapInterceptor;

/**
 * Keeps members without the plugin out of a cluster that stores jobs by reference. It changes nothing (every method
 * returns {@code null}, "no change", or does nothing); its only effect is that Hazelcast copies the interceptors of
 * {@code engine_runningJobInfo} to every joining member inside the join's post-join operation. A member that lacks
 * this class (a stock SeaTunnel without the plugin jar) cannot deserialize that operation, logs "Node could not join
 * cluster" and shuts down, so it never becomes master of jobs it could not read. A member with the jar but without
 * configuration never gets that far ({@link DropInService}).
 *
 * <p>Its {@code interceptPut} also hosts the test-only {@link TestCrashPoints#BEFORE_PUT} seam (off unless the
 * member runs with {@value TestCrashPoints#PROPERTY}).
 *
 * <p>Every member adds the same interceptor: equal instances with one hash code, so Hazelcast keeps one id.
 */
public final class JoinGuardInterceptor implements MapInterceptor {

    private static final long serialVersionUID = 1L;

    /**
     * The id Hazelcast gives this interceptor on every member (class name and hash code), by which a passive member
     * removes it ({@code IMap.removeInterceptor}).
     */
    public static final String ID = JoinGuardInterceptor.class.getName() + 0x4A495347;

    @Override
    public Object interceptGet(Object value) {
        return null;
    }

    @Override
    public void afterGet(Object value) {
        // nothing
    }

    @Override
    public Object interceptPut(Object oldValue, Object newValue) {
        if (oldValue == null) {
            // a new entry (SeaTunnel's inline put at submit), before it lands; a no-op unless a test turned it on
            TestCrashPoints.reached(TestCrashPoints.BEFORE_PUT, -1);
        }
        return null;
    }

    @Override
    public void afterPut(Object value) {
        // nothing
    }

    @Override
    public Object interceptRemove(Object removedValue) {
        return null;
    }

    @Override
    public void afterRemove(Object oldValue) {
        // nothing
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JoinGuardInterceptor;
    }

    @Override
    public int hashCode() {
        return 0x4A495347;
    }
}
