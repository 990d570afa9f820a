package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.metering.MeteredJobInfoStore;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.services.ManagedService;
import com.hazelcast.logging.ILogger;
import com.hazelcast.spi.impl.NodeEngine;
import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The drop-in on one SeaTunnel member: created by Hazelcast while it builds the member's services (through
 * {@link DropInServiceProvider}, found in the plugin jar's {@code META-INF/services}), before the member joins.
 *
 * <p>Creation reads the member's {@link DropInSettings}, checks them completely and opens the store. It throws, and
 * so stops the member's start-up before it joins a cluster, when
 * <ul>
 *   <li>the jar is there but the member has no {@code jobinfo-storage} section ({@link DropInRefusedException}): a
 *   member that cannot read stored jobs must never become master;</li>
 *   <li>the section is invalid ({@link InvalidConfigurationException}, every problem listed);</li>
 *   <li>the store cannot be opened ({@link DropInRefusedException} with the store's error);</li>
 *   <li>the store's namespace belongs to another cluster ({@link NamespaceClaim}: the first cluster to start on a
 *   namespace claims it by its Hazelcast cluster name).</li>
 * </ul>
 * Once the member has started, the {@link JobInfoMover} moves the jobs this member owns to the store; the
 * {@link JobInfoReferenceSerializer} reads them back through the {@link JobInfoResolver}.
 *
 * <p>Every store call goes through a {@link ThreadWatchedStore} (which counts the calls made on Hazelcast partition
 * threads: none by design), and the counters are exported as the JMX MBean
 * {@code io.jobinfo.store:type=SeaTunnelDropIn,instance=<member>} ({@link DropInMBean}) once the member starts, and
 * in SeaTunnel's own telemetry endpoint when its telemetry metrics are on ({@link DropInTelemetry}).
 */
public final class DropInService implements ManagedService {

    /** The service name under which Hazelcast registers the drop-in. */
    public static final String SERVICE_NAME = "jobinfo-store:seatunnel-dropin";

    private static final Map<SerializationService, DropInService> BY_SERIALIZATION = new ConcurrentHashMap<>();
    private static final Map<String, DropInService> BY_INSTANCE_NAME = new ConcurrentHashMap<>();

    private final NodeEngine nodeEngine;
    private final DropInSettings settings;
    private final JobInfoStore store;
    private final DropInMetrics metrics = new DropInMetrics();
    private final MeterRegistry meters;
    private final JobInfoResolver resolver;
    private final ILogger logger;
    private volatile JobInfoMover mover;
    /** Starts {@link #mover} and the history workers once the member has started, retrying until they are. */
    private volatile WorkerStart starter;
    /** Set by {@link #shutdown}: what an attempt starts after it, the attempt stops again. */
    private volatile boolean stopped;
    private volatile String instanceName;
    private volatile DropInTelemetry.Member telemetry;
    /** The history maps' stores, resolvers and movers ({@link DropInSettings#historyMaps()}; none by default). */
    private volatile HistoryStores history;
    /** The bound on retained history ({@link DropInSettings#historyMaxRetained()}), null when unbounded. */
    private volatile HistoryRetention retention;

    private DropInService(NodeEngine nodeEngine, DropInSettings settings, JobInfoStore opened, MeterRegistry meters) {
        this.nodeEngine = nodeEngine;
        this.settings = settings;
        this.logger = nodeEngine.getLogger(DropInService.class);
        this.store = new ThreadWatchedStore(opened, metrics, logger);
        this.meters = meters;
        this.resolver = new JobInfoResolver(store, settings.storage().cache(), settings.readTimeoutMillis(),
                settings.operationThreadWaitMillis(), metrics);
    }

    /**
     * Reads the configuration, opens the store and registers the service for the member's serialization service.
     *
     * @throws DropInRefusedException        no configuration, or the store cannot be opened
     * @throws InvalidConfigurationException the configuration is invalid (every problem listed)
     */
    static DropInService create(NodeEngine nodeEngine, Properties system) {
        try {
            return open(nodeEngine, system);
        } catch (RuntimeException refused) {
            // Hazelcast prints the exception on stderr only and SeaTunnel's log says 'Terminating forcefully': the
            // reason goes to the member's log too (configuration messages never hold a credential)
            ILogger log = nodeEngine.getLogger(DropInService.class);
            log.severe("jobinfo-store drop-in refuses to start this member: " + refused.getMessage());
            // the member's shutdown that follows must add no unrelated ERROR after that line
            RefusalShutdown.prepare(nodeEngine, log);
            throw refused;
        }
    }

    private static DropInService open(NodeEngine nodeEngine, Properties system) {
        DropInSettings settings = DropInSettings.load(system);
        MeterRegistry meters = new SimpleMeterRegistry();
        JobInfoStore store;
        try {
            store = MeteredJobInfoStore.open(settings.storage(), meters);
        } catch (JobInfoStoreException e) {
            throw new DropInRefusedException("the jobinfo-store drop-in cannot open its store (" + settings.storage()
                    + ", from " + settings.source() + "): " + e.getMessage());
        }
        String clusterName = nodeEngine.getConfig().getClusterName();
        try {
            NamespaceClaim.claim(store, clusterName);
        } catch (JobInfoStoreException e) {
            closeQuietly(store);
            throw new DropInRefusedException("the jobinfo-store drop-in refuses to start (" + settings.storage()
                    + ", from " + settings.source() + "): " + e.getMessage());
        }
        DropInService service = new DropInService(nodeEngine, settings, store, meters);
        if (!settings.historyMaps().isEmpty()) {
            try {
                service.history = HistoryStores.open(settings, clusterName, meters, service.metrics, service.logger);
            } catch (RuntimeException e) {
                service.resolver.close();
                closeQuietly(store);
                throw e;
            }
        }
        BY_SERIALIZATION.put(nodeEngine.getSerializationService(), service);
        service.logger.info("jobinfo-store drop-in started in " + settings.mode().name().toLowerCase(java.util.Locale.ROOT)
                + " mode: store '" + store.storeId() + "' (" + store.type() + ", "
                + store.location(0).parent() + ") from " + settings.source()
                + (settings.mode() == DropInSettings.Mode.PASSIVE ? "; moves no job, admits members without the plugin"
                + " while no entry holds a reference" : "; moves every job to the store once every member has the"
                + " plugin"));
        return service;
    }

    private static void closeQuietly(JobInfoStore store) {
        try {
            store.close();
        } catch (JobInfoStoreException | RuntimeException ignored) {
            // refusing anyway
        }
    }

    /** The drop-in whose member owns {@code serialization}, or null (a client, or no drop-in running). */
    static DropInService forSerializationService(SerializationService serialization) {
        if (serialization != null) {
            DropInService s = BY_SERIALIZATION.get(serialization);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    /**
     * The drop-in of the member whose thread is running (Hazelcast names its threads {@code hz.<instance>.*}), or of
     * the only member of this JVM; null if none or ambiguous.
     */
    static DropInService forCurrentMember() {
        if (BY_INSTANCE_NAME.size() == 1) {
            return BY_INSTANCE_NAME.values().iterator().next();
        }
        String thread = Thread.currentThread().getName();
        for (Map.Entry<String, DropInService> e : BY_INSTANCE_NAME.entrySet()) {
            if (thread.startsWith("hz." + e.getKey() + ".")) {
                return e.getValue();
            }
        }
        return null;
    }

    /**
     * What every member of one cluster must share: the store's type, id and namespace ({@code local
     * 0155aa8a file:///var/lib/seatunnel/jobinfo/}).
     */
    String storeIdentity() {
        return store.type() + " " + store.storeId() + " " + store.location(0).parent();
    }

    /** Logs why this member is being refused (the exception that refuses it may be logged by Hazelcast only). */
    void refused(String reason) {
        logger.severe("jobinfo-store drop-in refuses this member: " + reason);
    }

    /** The drop-in of the member {@code instance} (in this JVM), or null. For probes and tests. */
    public static DropInService forInstance(HazelcastInstance instance) {
        return BY_INSTANCE_NAME.get(instance.getName());
    }

    @Override
    public void init(NodeEngine engine, Properties properties) {
        final HazelcastInstance instance = engine.getHazelcastInstance();
        BY_INSTANCE_NAME.put(instance.getName(), this);
        instanceName = instance.getName();
        String notRegistered = DropInMBean.register(instanceName, metrics);
        if (notRegistered != null) {
            logger.warning(notRegistered + "; the counters stay readable through DropInService.metrics()");
        }
        DropInTelemetry.Member member = DropInTelemetry.Member.of(engine.getConfig().getClusterName(),
                telemetryAddress(engine), settings.mode().name().toLowerCase(java.util.Locale.ROOT), store.type(),
                store.storeId(), metrics, meters);
        String notInTelemetry = DropInTelemetry.register(settings.telemetryMetrics(), member);
        if (notInTelemetry != null) {
            logger.warning(notInTelemetry);
        } else if (settings.telemetryMetrics()) {
            telemetry = member;
        }
        final WorkerStart start = new WorkerStart(() -> startWorkers(instance, engine), settings.sweepIntervalMillis(),
                logger);
        starter = start;
        instance.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.STARTED) {
                start.begin();
            }
        });
    }

    /**
     * One attempt of {@link WorkerStart}: starts the running-job mover, then the history movers and the history bound,
     * each once. A mover whose start fails is stopped (its threads and listeners released) and built again at the
     * next attempt.
     */
    private void startWorkers(HazelcastInstance instance, NodeEngine engine) {
        if (mover == null) {
            JobInfoMover m = new JobInfoMover(instance, engine.getSerializationService(), store, resolver, settings,
                    metrics, engine.getLogger(JobInfoMover.class), storeIdentity());
            try {
                m.start();
            } catch (RuntimeException e) {
                m.stop();
                throw e;
            }
            mover = m;
            if (stopped) {
                m.stop(); // shutdown ran meanwhile and may not have seen it
                return;
            }
        }
        HistoryStores h = history;
        if (h != null) {
            JobInfoMover m = mover;
            h.start(instance, engine.getSerializationService(), settings, engine.getLogger(HistoryMover.class),
                    m::everyMemberHasThePlugin);
        }
        if (settings.historyMaxRetained() != HistoryRetention.UNBOUNDED && retention == null) {
            HistoryRetention r = new HistoryRetention(instance, engine.getSerializationService(), settings,
                    metrics, engine.getLogger(HistoryRetention.class));
            r.start();
            retention = r;
            if (stopped) {
                r.stop();
            }
        }
    }

    /** The member's address as SeaTunnel's telemetry labels it ({@code address="127.0.0.1:5801"}). */
    private static String telemetryAddress(NodeEngine engine) {
        com.hazelcast.cluster.Address address = engine.getThisAddress();
        try {
            return address.getInetAddress().getHostAddress() + ":" + address.getPort();
        } catch (java.net.UnknownHostException e) {
            return address.getHost() + ":" + address.getPort();
        }
    }

    @Override
    public void reset() {
        // nothing is kept per cluster state
    }

    @Override
    public void shutdown(boolean terminate) {
        WorkerStart start = starter;
        if (start != null) {
            start.stop();
        }
        stopped = true; // an attempt that starts something after this stops it again (see startWorkers)
        JobInfoMover m = mover;
        if (m != null) {
            m.stop();
        }
        HistoryRetention r = retention;
        if (r != null) {
            r.stop();
        }
        HistoryStores h = history;
        if (h != null) {
            h.close();
        }
        if (instanceName != null) {
            DropInMBean.unregister(instanceName);
        }
        DropInTelemetry.unregister(telemetry);
        telemetry = null;
        BY_SERIALIZATION.remove(nodeEngine.getSerializationService(), this);
        resolver.close();
        BY_INSTANCE_NAME.values().remove(this);
        try {
            store.close();
        } catch (JobInfoStoreException e) {
            logger.warning("closing the jobinfo store failed: " + e.getMessage());
        }
    }

    JobInfoResolver resolver() {
        return resolver;
    }

    /** The resolver of history map {@code map}'s store, or null (this member keeps no history of it). */
    JobInfoResolver historyResolverOfMap(String map) {
        HistoryStores h = history;
        return h == null ? null : h.resolverOfMap(map);
    }

    /** The resolver of the history store {@code storeId}, or null (no such history store on this member). */
    JobInfoResolver historyResolver(String storeId) {
        HistoryStores h = history;
        return h == null ? null : h.resolver(storeId);
    }

    public JobInfoStore store() {
        return store;
    }

    public DropInSettings settings() {
        return settings;
    }

    /** This member's counters (see {@link DropInMetrics#snapshot()}). */
    public DropInMetrics metrics() {
        return metrics;
    }

    /** Store operations, metered by the api's {@code MeteredJobInfoStore}. */
    public MeterRegistry meters() {
        return meters;
    }

    /** Whether the member has started and moves jobs. */
    public boolean active() {
        return mover != null;
    }
}
