package io.jobinfo.store.seatunnel.harness.junit;

import io.jobinfo.store.seatunnel.harness.ClusterClient;
import java.nio.file.Path;
import java.time.Duration;

/** What the tests of the drop-in on a real cluster configure and wait for, shared by seatunnel-it and seatunnel-ops-it. */
public final class DropInChecks {

    /** The interceptor class a stock member's log names when it cannot join a cluster whose map holds references. */
    public static final String JOIN_GUARD = "io.jobinfo.store.seatunnel.dropin.JoinGuardInterceptor";

    private DropInChecks() {
    }

    /** The {@code jobinfo-storage} section of seatunnel.yaml for a local store at {@code namespace}. */
    public static String storageYaml(Path namespace) {
        return """
                jobinfo-storage:
                  type: local
                  namespace: %s
                  cache:
                    max-bytes: 32MiB
                """.formatted(namespace);
    }

    /**
     * Waits until the map holds a reference (fewer than 200 bytes) for {@code jobId}.
     *
     * @throws AssertionError after 60 s, naming the bytes stored and the drop-in's counters
     */
    public static void awaitReference(ClusterClient client, long jobId) {
        ClusterClient.await(() -> {
            long bytes = client.storedJobBytes(jobId);
            return bytes > 0 && bytes < 200;
        }, Duration.ofSeconds(60), () -> "job " + jobId + " is still inline: " + client.storedJobBytes(jobId)
                + " bytes; drop-in counters " + client.dropInMetrics());
    }
}
