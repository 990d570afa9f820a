package io.jobinfo.store.seatunnel.harness.junit;

import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * One real cluster per test class: started before the first test, stopped after the last one whatever happened
 * (register as a static {@code @RegisterExtension} field). Files and member logs go to
 * {@code target/seatunnel-it/<test class>/}.
 */
public final class SeaTunnelClusterExtension implements BeforeAllCallback, AfterAllCallback {

    public static final Path TARGET = Path.of(System.getProperty("seatunnel.it.target", "target/seatunnel-it"));

    private final Supplier<ClusterSpec> specSupplier;
    private final Duration startTimeout;
    private final int spareMembers;
    private SeaTunnelProcessCluster cluster;
    private ClusterClient client;

    public SeaTunnelClusterExtension(Supplier<ClusterSpec> spec) {
        this(spec, Duration.ofSeconds(120));
    }

    public SeaTunnelClusterExtension(Supplier<ClusterSpec> spec, Duration startTimeout) {
        this(spec, startTimeout, 0);
    }

    /** The last {@code spareMembers} members of the spec are not started (a test starts them with a variant). */
    public SeaTunnelClusterExtension(Supplier<ClusterSpec> spec, Duration startTimeout, int spareMembers) {
        this.specSupplier = spec;
        this.startTimeout = startTimeout;
        this.spareMembers = spareMembers;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        ClusterSpec spec = specSupplier.get();
        Path dir = TARGET.resolve(context.getRequiredTestClass().getSimpleName());
        int members = spec.size() - spareMembers;
        cluster = new SeaTunnelProcessCluster(spec, dir).start(members);
        try {
            client = new ClusterClient(spec);
            // a member that refuses to start exits: fail then, not after the whole timeout
            long deadline = System.nanoTime() + startTimeout.toNanos();
            ClusterClient.await(() -> client.members().size() == members
                            || cluster.aliveMembers().size() < members || System.nanoTime() > deadline,
                    startTimeout.plusSeconds(5), () -> "");
            if (client.members().size() != members) {
                throw new AssertionError(cluster.aliveMembers().size() < members
                        ? "a member process exited during start-up" : "the cluster has " + client.members().size()
                        + " members, not " + members + ", after " + startTimeout);
            }
        } catch (RuntimeException | AssertionError e) {
            String tail = cluster.logTail(0, 4000);
            cluster.close();
            throw new IllegalStateException("the SeaTunnel cluster " + spec.clusterName() + " did not form; log of member 0"
                    + " (" + cluster.log(0) + "):\n" + tail, e);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /**
     * After the whole cluster was stopped or killed: starts every member again with the cluster's own configuration,
     * replaces the client (the old one gave up on the cluster) and waits until all have joined.
     *
     * @throws AssertionError if they do not form the cluster within {@code timeout}
     */
    public ClusterClient restartEveryMember(Duration timeout) {
        if (client != null) {
            try {
                client.close();
            } catch (RuntimeException alreadyGone) {
                // it lost the cluster
            }
        }
        int members = cluster.spec().size() - spareMembers;
        cluster.start(members);
        client = new ClusterClient(cluster.spec());
        client.awaitClusterSize(members, timeout);
        return client;
    }

    public SeaTunnelProcessCluster cluster() {
        return cluster;
    }

    public ClusterClient client() {
        return client;
    }

    /** The directory of this test class's files under target/. */
    public Path dir() {
        return cluster.baseDir();
    }
}
