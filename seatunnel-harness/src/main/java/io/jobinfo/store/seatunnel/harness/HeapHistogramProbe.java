package io.jobinfo.store.seatunnel.harness;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The member's live-object class histogram (the HotSpot diagnostic command {@code GC.class_histogram}, which runs a
 * full collection first), its first {@code lines} lines: what holds the member's heap, by class.
 */
public final class HeapHistogramProbe extends MemberProbe<String> {

    private static final long serialVersionUID = 1L;

    private final int lines;

    public HeapHistogramProbe(int lines) {
        this.lines = lines;
    }

    @Override
    public String call() throws JMException {
        Object out = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        String[] all = out.toString().split("\n");
        return String.join("\n", java.util.Arrays.copyOf(all, Math.min(lines, all.length)));
    }
}
