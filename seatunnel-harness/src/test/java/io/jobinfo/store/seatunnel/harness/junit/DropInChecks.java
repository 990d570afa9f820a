package io.jobinfo.store.seatunnel.harness.junit;

import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** What the tests of the drop-in on a real cluster configure and wait for, shared by seatunnel-it and seatunnel-ops-it. */
public final class DropInChecks {

    /** The interceptor class a stock member's log names when it cannot join a cluster whose map holds references. */
    public static final String JOIN_GUARD = "io.jobinfo.store.seatunnel.dropin.JoinGuardInterceptor";

    private DropInChecks() {
    }

    /** The {@code jobinfo-storage} section of seatunnel.yaml for a local store at {@code namespace}. */
    public static String storageYaml(Path namespace) {
        return io.jobinfo.store.seatunnel.harness.ScaleOptions.localStorageYaml(namespace);
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

    /** A line of SeaTunnel 2.3.8's log file at ERROR: {@code [<job id>] <date> <time> ERROR [<logger>] [<thread>] - }. */
    private static final Pattern ERROR_LINE = Pattern.compile("^\\[[^\\]]*] \\S+ \\S+ ERROR ");
    /** The start of the drop-in's refusal line in that file (the logger name as its layout shortens it). */
    private static final String REFUSAL = "ERROR \\[i\\.j\\.s\\.s\\.d\\.DropInService\\s*] \\[[^\\]]*] - .*"
            + "jobinfo-store drop-in refuses to start this member: ";

    /**
     * The refusal of member {@code index} (started from a spec {@code withSeaTunnelLogFile()}, now exited) as an
     * operator finds it: in SeaTunnel's own log file, {@code logs/seatunnel-engine-server.log}, the drop-in's ERROR line
     * whose reason matches {@code reason} (a regular expression), and no other ERROR line (an unrelated one, such as
     * Hazelcast's NullPointerException while shutting a half-started member down, hides the reason).
     *
     * @return the file's text, for further assertions
     */
    public static String assertRefusalInServerLog(SeaTunnelProcessCluster cluster, int index, String reason) {
        assertThat(cluster.isAlive(index)).as("member %d has exited", index).isFalse();
        Path file = cluster.serverLog(index);
        assertThat(file).as("SeaTunnel's log file of member %d", index).isRegularFile();
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        assertThat(text).as("%s", file).containsPattern(REFUSAL + reason);
        List<String> errors = text.lines().filter(l -> ERROR_LINE.matcher(l).find()).toList();
        assertThat(errors).as("ERROR lines of %s (the refusal's only)", file).hasSize(1);
        // the only ERROR line is the refusal (its reason may go on over the lines that follow)
        assertThat(errors.get(0)).containsPattern(REFUSAL);
        return text;
    }
}
