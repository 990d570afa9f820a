package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.it.cluster.DeployingStateProbe;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SeaTunnel 2.3.8's redeploy loop after a master switch, on the stock engine with no drop-in (3 member processes): the
 * restored job the crash trials once saw stuck on S3. A master that dies while a task group is {@code DEPLOYING} in
 * {@code engine_runningJobState} and the worker already runs it leaves a state the next master does not repair:
 * {@code PhysicalVertex.initStateFuture} asks the worker, finds the task executing and keeps {@code DEPLOYING};
 * {@code SubPlan.restorePipelineState} calls {@code restoreExecutionState}, which deploys it again; the worker refuses
 * ({@code TaskExecutionService.deployTask}: "TaskGroupLocation ... already exists"); the vertex goes FAILING then
 * FAILED with no cancel sent to the worker, so the first deploy keeps running there; the pipeline fails and is
 * restored every {@code job.retry.interval.seconds} (3), and each redeploy meets the same running task. The job
 * reports RUNNING all along. Upstream: apache/seatunnel#10568, fixed after 2.3.8 by #10567 (a deploy of a task group
 * the worker already runs is accepted).
 *
 * <p>The test writes the state a master killed in that window leaves ({@link DeployingStateProbe}: the source's split
 * enumerator, running on a worker, {@code DEPLOYING}), kills the master ({@code kill -9}) and sees the refused deploy
 * of that task group in the worker's log and the job RUNNING 15 s later. Here the rest went either way: more refused
 * redeploys 3 s apart (the loop: 3 in one run, 4 in another, the job RUNNING after them), or none (stuck: the tasks' ends reached the pipeline
 * before its state process started, as the log's "state process is not start" shows, and no thread works on it any
 * more, a thread dump shows; the job stays RUNNING with no task of its own running but the orphan). Figures in
 * {@code target/seatunnel-it/stock-redeploy-loop.txt}. Long mode only (about a minute and a half).
 */
@EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true",
        disabledReason = "SeaTunnel's own redeploy loop, shown on a stock cluster: run with -Djobinfo.it.long=true")
class StockEngineRedeployLoopTest {

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(
            () -> ClusterSpec.stock("st-redeploy", 3), Duration.ofSeconds(120));

    @Test
    void aTaskGroupLeftDeployingByADeadMasterIsRedeployedOntoItsOwnRunningTask() throws Exception {
        ClusterClient client = ST.client();
        Path file = FakeJobs.write(ST.dir().resolve("jobs"), "stream-3x10", 3, 10, true);
        int masterPort = client.masterPort();
        String taken = null;
        long jobId = -1;
        for (int attempt = 0; attempt < 5 && taken == null; attempt++) {
            jobId = client.submit(file, "redeploy-loop-" + attempt);
            client.awaitStatus(jobId, "RUNNING", Duration.ofSeconds(90));
            long id = jobId;
            String[] found = {null};
            try {
                ClusterClient.await(() -> {
                    found[0] = call(new DeployingStateProbe(id, masterPort, true));
                    return found[0] != null;
                }, Duration.ofSeconds(10), () -> "");
            } catch (AssertionError everyTaskOnTheMaster) {
                client.cancel(id); // and another job, whose tasks may be placed elsewhere
            }
            taken = found[0];
        }
        assertThat(taken).as("a task group of the job on a worker other than the master").isNotNull();
        int workerPort = Integer.parseInt(taken.substring(taken.lastIndexOf(' ') + 1));
        int worker = ST.cluster().indexOfPort(workerPort);
        int refusedBefore = refusals(worker);

        ST.cluster().kill(ST.cluster().indexOfPort(masterPort));
        long id = jobId;
        // the refused redeploy at the restore; then, 3 s apart, one per pipeline restore (the loop), or nothing more
        // (stuck: the pipeline's state machine lost the tasks' ends), the job RUNNING either way
        ClusterClient.await(() -> refusals(worker) > refusedBefore, Duration.ofSeconds(120),
                () -> "no refused redeploy in the worker's log 120 s after the master's kill");
        Thread.sleep(15_000);
        String status = client.status(id);
        int refused = refusals(worker) - refusedBefore;
        java.nio.file.Files.createDirectories(SeaTunnelClusterExtension.TARGET);
        java.nio.file.Files.writeString(SeaTunnelClusterExtension.TARGET.resolve("stock-redeploy-loop.txt"),
                "task group " + taken + " left DEPLOYING, master on port " + masterPort + " killed: " + refused
                        + " refused redeploys (the first and those of the 15 s after it), the job " + jobId + " "
                        + status
                        + "; SeaTunnel's detail: " + client.detailOf(id) + "\n");
        assertThat(status).as("the job's status in the loop").isEqualTo("RUNNING");
    }

    /** How often the member's log shows SeaTunnel refusing a deploy of a task group it runs. */
    static int refusals(int member) {
        String log = ST.cluster().logTail(member, Integer.MAX_VALUE);
        int n = 0;
        for (int i = log.indexOf("already exists"); i >= 0; i = log.indexOf("already exists", i + 1)) {
            n++;
        }
        return n;
    }

    static String call(DeployingStateProbe probe) {
        try {
            return ST.client().seaTunnelClient().getHazelcastInstance().getExecutorService("seatunnel-it-probe")
                    .submit(probe).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the probe failed", e);
        }
    }
}
