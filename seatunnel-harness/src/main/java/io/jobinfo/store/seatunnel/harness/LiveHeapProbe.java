package io.jobinfo.store.seatunnel.harness;

import java.lang.management.ManagementFactory;

/**
 * The member's live heap: {@code System.gc()} (the harness starts members with {@code -XX:+UseSerialGC}, where it is
 * a full, stop-the-world collection of both generations) and then the heap's used bytes
 * ({@code MemoryMXBean.getHeapMemoryUsage().getUsed()}), which is then what survived it plus what the member
 * allocated in the few microseconds since.
 */
public final class LiveHeapProbe extends MemberProbe<Long> {

    private static final long serialVersionUID = 1L;

    @Override
    public Long call() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
