package io.jobinfo.store.seatunnel.dropin;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The drop-in's counters as a read-only JMX MBean in the platform MBean server, one per member:
 * {@code io.jobinfo.store:type=SeaTunnelDropIn,instance=<Hazelcast instance name>}. Every entry of
 * {@link DropInMetrics#snapshot()} is a {@code long} attribute of the same name ({@code moved}, {@code moveFailures},
 * {@code pendingMoves}, {@code inlineOwned}, {@code readFailures}, {@code storeCallsOnPartitionThreads}, ...), plus
 * {@code storeThreadKinds} (a {@code String[]}). JMX works whatever SeaTunnel's configuration (its telemetry is off
 * by default; when it is on, the same counters are in its Prometheus endpoint too: {@link DropInTelemetry}); an
 * operator reads these with jconsole, a JMX exporter (Prometheus' jmx_exporter) or
 * {@code -Dcom.sun.management.jmxremote.*}.
 *
 * <p>Failure: {@link #register} never throws; when the MBean cannot be registered (no platform MBean server, a name
 * taken by another member in the same JVM) it returns a message for the caller to log, and the drop-in runs without it.
 */
final class DropInMBean implements DynamicMBean {

    static final String DOMAIN = "io.jobinfo.store";
    static final String THREAD_KINDS = "storeThreadKinds";

    private final DropInMetrics metrics;

    DropInMBean(DropInMetrics metrics) {
        this.metrics = metrics;
    }

    /** The MBean's name for the member {@code instanceName}. */
    static ObjectName nameFor(String instanceName) throws MalformedObjectNameException {
        return new ObjectName(DOMAIN + ":type=SeaTunnelDropIn,instance=" + ObjectName.quote(instanceName));
    }

    /** Registers the MBean; returns null on success, else why it is not there. */
    static String register(String instanceName, DropInMetrics metrics) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            server.registerMBean(new DropInMBean(metrics), nameFor(instanceName));
            return null;
        } catch (InstanceAlreadyExistsException e) {
            return "a jobinfo-store drop-in MBean for the instance '" + instanceName + "' is already registered";
        } catch (JMException | RuntimeException e) {
            return "the jobinfo-store drop-in MBean could not be registered: " + e;
        }
    }

    /** Removes the MBean of {@code instanceName} if it is there; never throws. */
    static void unregister(String instanceName) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = nameFor(instanceName);
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
        } catch (JMException | RuntimeException ignored) {
            // the member is going away
        }
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        if (THREAD_KINDS.equals(attribute)) {
            return metrics.storeThreadKinds().toArray(new String[0]);
        }
        Long value = metrics.snapshot().get(attribute);
        if (value == null) {
            throw new AttributeNotFoundException("no attribute '" + attribute + "' on the jobinfo-store drop-in MBean;"
                    + " it has " + metrics.snapshot().keySet() + " and " + THREAD_KINDS);
        }
        return value;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("the jobinfo-store drop-in MBean is read-only");
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        for (String a : attributes) {
            try {
                list.add(new Attribute(a, getAttribute(a)));
            } catch (AttributeNotFoundException ignored) {
                // JMX: unknown attributes are left out of the list
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("the jobinfo-store drop-in MBean has no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        List<MBeanAttributeInfo> attributes = new ArrayList<>();
        for (Map.Entry<String, Long> e : metrics.snapshot().entrySet()) {
            attributes.add(new MBeanAttributeInfo(e.getKey(), "long", "jobinfo-store drop-in counter " + e.getKey()
                    + " (see DropInMetrics.snapshot)", true, false, false));
        }
        attributes.add(new MBeanAttributeInfo(THREAD_KINDS, String[].class.getName(),
                "kinds of thread that called the store", true, false, false));
        return new MBeanInfo(DropInMBean.class.getName(), "jobinfo-store drop-in of one SeaTunnel member",
                attributes.toArray(new MBeanAttributeInfo[0]), null, null, null);
    }
}
