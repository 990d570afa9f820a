package io.jobinfo.store.seatunnel.it;

import com.hazelcast.map.MapInterceptor;

/**
 * Test code: a {@link MapInterceptor} that changes nothing (Hazelcast 5.1 has no adapter class), for test
 * interceptors that watch one operation and override only its method. Equal to every instance of the same class, so
 * that adding it twice keeps one.
 */
abstract class PassThroughInterceptor implements MapInterceptor {

    private static final long serialVersionUID = 1L;

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
        return o != null && o.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return getClass().getName().hashCode();
    }
}
