package io.jobinfo.store.seatunnel.it;

/**
 * Test code, not part of the drop-in: an interceptor the crash trials add to {@code engine_runningJobInfo} (Hazelcast
 * copies it to every member, and to each member that joins later) so that a member can be parked inside SeaTunnel's
 * inline put of a new job, on the partition thread, before the value lands: the point {@value #POINT} of
 * {@link CrashPointParker}. The drop-in itself puts no interceptor on that map (Hazelcast would deserialize every
 * value put and read there); this one costs the trials' cluster that deserialization, nothing else.
 */
final class BeforePutParker extends PassThroughInterceptor {

    private static final long serialVersionUID = 1L;

    /** The point's name in {@link CrashPointParker}'s files. */
    static final String POINT = "before-put";

    @Override
    public Object interceptPut(Object oldValue, Object newValue) {
        if (oldValue == null) {
            CrashPointParker.reached(POINT, -1); // a new entry: SeaTunnel's inline put at submit
        }
        return null;
    }
}
