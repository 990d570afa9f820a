package io.jobinfo.store.seatunnel.it.cluster;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Runs inside a member and reads the drop-in's counters the way an operator's JMX client does: through the platform
 * MBean server, by the MBean's name pattern {@code io.jobinfo.store:type=SeaTunnelDropIn,*}, every {@code long}
 * attribute by the names the MBean itself declares. Returns {@code {"mbeans": 0}} when none is registered.
 */
public final class DropInJmxProbe implements Callable<HashMap<String, Long>>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public HashMap<String, Long> call() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = server.queryNames(new ObjectName("io.jobinfo.store:type=SeaTunnelDropIn,*"), null);
        HashMap<String, Long> out = new HashMap<>();
        out.put("mbeans", (long) names.size());
        for (ObjectName name : names) {
            for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
                if ("long".equals(a.getType())) {
                    out.put(a.getName(), (Long) server.getAttribute(name, a.getName()));
                }
            }
            String[] kinds = (String[]) server.getAttribute(name, "storeThreadKinds");
            for (String k : kinds) {
                out.put("thread:" + k, 1L);
            }
        }
        return out;
    }
}
