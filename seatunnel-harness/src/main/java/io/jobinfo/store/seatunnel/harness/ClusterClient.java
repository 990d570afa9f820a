package io.jobinfo.store.seatunnel.harness;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.map.IMap;
import org.apache.seatunnel.engine.client.SeaTunnelHazelcastClient;
import org.apache.seatunnel.engine.client.job.ClientJobExecutionEnvironment;
import org.apache.seatunnel.engine.client.job.ClientJobProxy;
import org.apache.seatunnel.engine.client.job.JobClient;
import org.apache.seatunnel.engine.common.Constant;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.common.config.SeaTunnelConfig;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * The test JVM's side of a {@link SeaTunnelProcessCluster}: SeaTunnel's own client ({@link SeaTunnelHazelcastClient},
 * Hazelcast 5.1 from {@code seatunnel-hazelcast-shade}) to submit, watch and cancel real jobs, and the same
 * connection to read {@code engine_runningJobInfo} and run {@link RunningJobInfoProbe} on every member.
 */
public final class ClusterClient implements AutoCloseable {

    public static final String RUNNING_JOB_INFO = Constant.IMAP_RUNNING_JOB_INFO;

    private final SeaTunnelHazelcastClient client;
    private final String clusterName;
    private final JobClient jobClient;

    public ClusterClient(ClusterSpec spec) {
        ClientConfig config = new ClientConfig();
        config.setClusterName(spec.clusterName());
        this.clusterName = spec.clusterName();
        List<String> addresses = new ArrayList<>();
        for (int port : spec.ports()) {
            addresses.add("127.0.0.1:" + port);
        }
        config.getNetworkConfig().setAddresses(addresses);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(60_000);
        config.setProperty("hazelcast.logging.type", "log4j2");
        config.setProperty("hazelcast.client.invocation.timeout.seconds", "120");
        this.client = new SeaTunnelHazelcastClient(config);
        this.jobClient = new JobClient(client);
    }

    /**
     * Submits the job in {@code jobFile} the way {@code seatunnel.sh} does (the job is parsed here, its logical DAG and
     * {@code JobImmutableInformation} built by SeaTunnel's client classes) and returns its id once the master has
     * accepted it.
     *
     * @throws IllegalStateException if the submit fails
     */
    public long submit(Path jobFile, String jobName) {
        JobConfig jobConfig = new JobConfig();
        jobConfig.setName(jobName);
        ClientJobExecutionEnvironment env = new ClientJobExecutionEnvironment(jobConfig, jobFile.toString(), null,
                client, new SeaTunnelConfig(), null);
        try {
            ClientJobProxy proxy = env.execute();
            return proxy.getJobId();
        } catch (ExecutionException e) {
            throw new IllegalStateException("submit of " + jobName + " (" + jobFile + ") failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while submitting " + jobName, e);
        }
    }

    /** A submit of {@code jobFile} under the job id {@code jobId} whose job bytes are known before it is sent. */
    public RecordedSubmit recorded(Path jobFile, String jobName, long jobId) {
        return new RecordedSubmit(client, jobFile, jobName, jobId, false);
    }

    /**
     * A restore of the job {@code jobId} from its savepoint (what {@code seatunnel.sh -r <jobId>} sends after a stop
     * with {@code -s}): SeaTunnel takes the same job id again, with a new {@code JobImmutableInformation}.
     */
    public RecordedSubmit restoredFromSavepoint(Path jobFile, String jobName, long jobId) {
        return new RecordedSubmit(client, jobFile, jobName, jobId, true);
    }

    /** Stops the job {@code jobId} with a savepoint ({@code seatunnel.sh -s}); returns once the request is sent. */
    public void savepoint(long jobId) {
        jobClient.savePointJob(jobId);
    }

    /** A fresh job id from SeaTunnel's own id generator (what a submit without an id uses). */
    public long newJobId() {
        return jobClient.getNewJobId();
    }

    /** The port of the member that owns the partition of {@code engine_runningJobInfo}'s key {@code jobId}. */
    public int partitionOwnerPort(long jobId) {
        Member owner = client.getHazelcastInstance().getPartitionService().getPartition(jobId).getOwner();
        return owner == null ? -1 : owner.getAddress().getPort();
    }

    /** The partition of {@code engine_runningJobInfo}'s key {@code jobId} (its partition thread: id modulo threads). */
    public int partitionId(long jobId) {
        return client.getHazelcastInstance().getPartitionService().getPartition(jobId).getPartitionId();
    }

    /**
     * A fresh job id whose entry the member on {@code port} owns (ids drawn until one fits, at most 2000 per round).
     * A cluster that has just formed (or a member that has just joined) may not own partitions yet: the map is
     * touched, which makes the master assign them, and the draw is repeated for up to 60 s.
     */
    public long newJobIdOwnedBy(int port) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            runningJobInfo().size(); // assigns the partitions if none is yet
            for (int i = 0; i < 2000; i++) {
                long id = newJobId();
                if (partitionOwnerPort(id) == port) {
                    return id;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no job id owned by the member on port " + port + " in 60 s");
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** Whether the cluster is safe (every partition has owner and backup), asked of one member. */
    public boolean clusterSafe() {
        try {
            return client.getHazelcastInstance().getExecutorService("seatunnel-it-probe")
                    .submit(new ClusterSafeProbe()).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** What {@link JobBytesProbe} finds for each job, asked of one member. */
    public Map<Long, String> jobBytes(List<Long> jobIds) {
        try {
            return client.getHazelcastInstance().getExecutorService("seatunnel-it-probe")
                    .submit(new JobBytesProbe(jobIds)).get(120, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the jobs " + jobIds + " on a member", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The job's status as the master reports it ({@code RUNNING}, {@code CANCELED}, {@code UNKNOWABLE}, ...). */
    public String status(long jobId) {
        return jobClient.getJobStatus(jobId);
    }

    /** Asks the master to cancel the job; returns once the request is accepted. */
    public void cancel(long jobId) {
        jobClient.cancelJob(jobId);
    }

    /**
     * {@link #cancel} of a job that is RUNNING right before; fails, with SeaTunnel's detail, if it is not (SeaTunnel
     * accepts the cancel of an ended job silently).
     */
    public void cancelRunning(long jobId) {
        String status = status(jobId);
        if (!"RUNNING".equals(status)) {
            throw new AssertionError("job " + jobId + " is " + status + ", not RUNNING, before its cancel; SeaTunnel's"
                    + " detail: " + detailOf(jobId));
        }
        cancel(jobId);
    }

    /** The job's status, or the exception asking for it threw (a master in the middle of a failover), as text. */
    private String statusOrError(long jobId) {
        try {
            return status(jobId);
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    /** Waits up to {@code timeout} for the job's status to be {@code expected}; fails with the last status seen. */
    public void awaitStatus(long jobId, String expected, Duration timeout) {
        String[] last = {null};
        await(() -> {
            last[0] = statusOrError(jobId);
            if (!expected.equals(last[0]) && TERMINAL.contains(last[0])) {
                throw new AssertionError("job " + jobId + " ended " + last[0] + " while awaiting " + expected
                        + "; SeaTunnel's detail: " + detailOf(jobId));
            }
            return expected.equals(last[0]);
        }, timeout, () -> "job " + jobId + " is not " + expected + " after " + timeout + "; last status: " + last[0]);
    }

    /**
     * Polls the status of every job of {@code jobs} (every 100 ms) until all are RUNNING or {@code timeout} has
     * passed, and returns, per job, the statuses other than RUNNING it answered on the way, in order, without
     * repeats (an exception asking counts as its class name). A job RUNNING at the first poll has an empty list; a
     * job that was never RUNNING again has a list that does not end with RUNNING. No status fails the wait: after a
     * master switch SeaTunnel answers {@code UNKNOWABLE}, or the state its history holds for the id (a job restored
     * from a savepoint: {@code SAVEPOINT_DONE}, its first instance's end), until the new master restored the job.
     */
    public Map<Long, List<String>> awaitEveryRunning(Collection<Long> jobs, Duration timeout) {
        Map<Long, List<String>> seen = new LinkedHashMap<>();
        Set<Long> pending = new LinkedHashSet<>(jobs);
        jobs.forEach(id -> seen.put(id, new ArrayList<>()));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (Iterator<Long> it = pending.iterator(); it.hasNext(); ) {
                long id = it.next();
                String status = statusOrError(id);
                List<String> own = seen.get(id);
                if ("RUNNING".equals(status)) {
                    if (!own.isEmpty()) {
                        own.add(status);
                    }
                    it.remove();
                } else if (own.isEmpty() || !own.get(own.size() - 1).equals(status)) {
                    own.add(status);
                }
            }
            if (pending.isEmpty() || System.nanoTime() > deadline) {
                return seen;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return seen;
            }
        }
    }

    /**
     * SeaTunnel's job states from which a job never moves on. Not {@code UNKNOWABLE}: a master answers that for a job
     * whose job master it has not restored yet, so it passes after a failover.
     */
    static final java.util.Set<String> TERMINAL = java.util.Set.of("FINISHED", "CANCELED", "FAILED", "SAVEPOINT_DONE");

    /**
     * SeaTunnel's detail status of the job (its state, error message and pipeline states, as JSON), cut to 6000
     * characters, for failure messages and reports; never fails.
     */
    public String detailOf(long jobId) {
        try {
            String detail = jobClient.getJobDetailStatus(jobId);
            return detail.length() > 6000 ? detail.substring(0, 6000) + "..." : detail;
        } catch (RuntimeException e) {
            return "(cannot read it: " + e + ")";
        }
    }

    /** How a job ended: SeaTunnel's end state and its detail status ({@link #detailOf}). */
    public record JobEnd(long jobId, String status, String detail) {

        /**
         * Keeps a FAILED end (one SeaTunnel chose at a cancel after a member loss, not the drop-in: see
         * {@link #awaitCanceledAfterMemberLoss}) in a test's report under {@code failedAtCancel}, with SeaTunnel's
         * detail, so a run shows how often it happens; any other end is left out.
         */
        @SuppressWarnings("unchecked")
        public void recordIfFailed(Map<String, Object> report) {
            if (status.equals("FAILED")) {
                ((Map<String, String>) report.computeIfAbsent("failedAtCancel", k -> new LinkedHashMap<>()))
                        .put(Long.toString(jobId), detail);
            }
        }
    }

    /**
     * Waits until a job that was asked to cancel after a member of its cluster was lost has ended, and returns how.
     * Such a job ends CANCELED, or FAILED when SeaTunnel 2.3.8 still held one of its pipelines FAILING from a task
     * lost with the member: its {@code SubPlan} ends a pipeline that meets a failed task during a cancel FAILED, and
     * a task whose end was reported while no master ran the job can leave the pipeline failing ("not running" in the
     * new master's log). Nothing of the drop-in is on that path. A FAILED end is accepted only if SeaTunnel's detail
     * does not name a class of this project ({@code io.jobinfo.store}): a job failed by the drop-in fails the caller.
     * Cancel with {@link #cancelRunning}, so that a job that had failed before its cancel fails the caller too.
     *
     * @throws AssertionError on any other end, or if the job has not ended within {@code timeout}
     */
    public JobEnd awaitCanceledAfterMemberLoss(long jobId, Duration timeout) {
        String[] last = {null};
        await(() -> {
            last[0] = statusOrError(jobId);
            return "CANCELED".equals(last[0]) || "FAILED".equals(last[0]);
        }, timeout, () -> "job " + jobId + " has not ended " + timeout + " after its cancel; last status: " + last[0]);
        String detail = detailOf(jobId);
        if ("FAILED".equals(last[0]) && detail.contains("io.jobinfo.store")) {
            throw new AssertionError("job " + jobId + " ended FAILED at its cancel, failed by the drop-in: " + detail);
        }
        return new JobEnd(jobId, last[0], detail);
    }

    /** The raw {@code engine_runningJobInfo} map (values are SeaTunnel's {@link JobInfo}). */
    public IMap<Long, JobInfo> runningJobInfo() {
        return client.getHazelcastInstance().getMap(RUNNING_JOB_INFO);
    }

    /**
     * The size in bytes of the job's {@code JobImmutableInformation} as the map holds it (Hazelcast {@code Data}
     * inside {@link JobInfo}), or -1 if the map has no entry.
     */
    public long storedJobBytes(long jobId) {
        JobInfo info = runningJobInfo().get(jobId);
        return info == null ? -1 : info.getJobImmutableInformation().totalSize();
    }

    /** {@code LocalMapStats} of {@code mapName} on every member, summed. */
    public MapFigures mapFigures(String mapName) {
        MapFigures sum = MapFigures.ZERO;
        for (MapFigures f : onEveryMember(new RunningJobInfoProbe(mapName), "the LocalMapStats of " + mapName)
                .values()) {
            sum = sum.plus(f);
        }
        return sum;
    }

    /** The drop-in counters of every member, by member port (see {@link DropInProbe}). */
    public Map<Integer, Map<String, Long>> dropInMetrics() {
        return new java.util.TreeMap<>(onEveryMember(new DropInProbe(), "the drop-in counters"));
    }

    /** Runs {@code task} on every member; its answers by member port. */
    public <T> Map<Integer, T> onEveryMember(java.util.concurrent.Callable<T> task) {
        return onEveryMember(task, "probe " + task);
    }

    /**
     * {@code task}'s answers by member port; a member that fails or takes over 60 s fails the call, naming it. A
     * member the client still listed but the cluster no longer has (it left or was killed, and the client's member
     * list had not caught up: Hazelcast answers {@code TargetNotMemberException} or {@code MemberLeftException}) is
     * not a member: it has no answer, and callers that count the answers see one fewer.
     */
    private <T> Map<Integer, T> onEveryMember(java.util.concurrent.Callable<T> task, String what) {
        IExecutorService executor = client.getHazelcastInstance().getExecutorService("seatunnel-it-probe");
        Map<Member, Future<T>> futures = executor.submitToAllMembers(task);
        Map<Integer, T> out = new java.util.TreeMap<>();
        for (Map.Entry<Member, Future<T>> e : futures.entrySet()) {
            try {
                out.put(e.getKey().getAddress().getPort(), answer(e.getValue(), e.getKey(), what,
                        Duration.ofSeconds(60)));
            } catch (IllegalStateException ex) {
                if (!leftTheCluster(ex)) {
                    throw ex;
                }
            }
        }
        return out;
    }

    private static boolean leftTheCluster(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof com.hazelcast.spi.exception.TargetNotMemberException
                    || c instanceof com.hazelcast.core.MemberLeftException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs {@code task} on the member at {@code port} and returns its answer.
     *
     * @throws IllegalStateException naming the member if it is not in the cluster, fails or takes longer than
     *                               {@code timeout}
     */
    public <T> T onMember(int port, java.util.concurrent.Callable<T> task, Duration timeout) {
        Member member = members().stream().filter(m -> m.getAddress().getPort() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("no member on port " + port + ": " + members()));
        IExecutorService executor = client.getHazelcastInstance().getExecutorService("seatunnel-it-probe");
        return answer(executor.submitToMember(task, member), member, "probe " + task, timeout);
    }

    private static <T> T answer(Future<T> future, Member member, String what, Duration timeout) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException ex) {
            throw new IllegalStateException("cannot read " + what + " on " + member, ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /**
     * Waits until the drop-in has started on every member the client lists ({@link DropInProbe}: installed and
     * active). A member answers the client before its start-up ends, and the drop-in starts its movers after that.
     *
     * @throws AssertionError after {@code timeout}, with every member's counters
     */
    public void awaitDropInActive(Duration timeout) {
        await(() -> dropInMetrics().values().stream().allMatch(m -> m.getOrDefault("installed", 0L) == 1
                        && m.getOrDefault("active", 0L) == 1), timeout,
                () -> "the drop-in is not active on every member: " + dropInMetrics());
    }

    /** One drop-in counter summed over every member. */
    public long dropInTotal(String counter) {
        long sum = 0;
        for (Map<String, Long> m : dropInMetrics().values()) {
            sum += m.getOrDefault(counter, 0L);
        }
        return sum;
    }

    /** The members as this client sees them, oldest (the master) first. */
    public List<Member> members() {
        return new ArrayList<>(client.getHazelcastInstance().getCluster().getMembers());
    }

    /** The port of the oldest member, which is the Hazelcast master and so SeaTunnel's coordinator. */
    public int masterPort() {
        return members().get(0).getAddress().getPort();
    }

    /**
     * The members the member on {@code port} sees, asked through a client of its own connected to that member alone
     * (unisocket): this client follows membership through one connection, which may be a stopped member's, and its
     * invocations may wait on that member (a fresh-clone CI run saw no answer for 60 s that way). -1 if the member
     * cannot be asked.
     */
    public int membersSeenBy(int port) {
        ClientConfig config = new ClientConfig();
        config.setClusterName(clusterName);
        config.getNetworkConfig().setSmartRouting(false).setAddresses(List.of("127.0.0.1:" + port));
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(10_000);
        config.setProperty("hazelcast.logging.type", "log4j2");
        com.hazelcast.core.HazelcastInstance direct = null;
        try {
            direct = com.hazelcast.client.HazelcastClient.newHazelcastClient(config);
            return direct.getCluster().getMembers().size();
        } catch (RuntimeException e) {
            return -1;
        } finally {
            if (direct != null) {
                direct.shutdown();
            }
        }
    }

    /** Waits until the cluster has {@code size} members. */
    public void awaitClusterSize(int size, Duration timeout) {
        await(() -> members().size() == size, timeout,
                () -> "cluster has " + members().size() + " members, not " + size + ", after " + timeout);
    }

    public SeaTunnelHazelcastClient seaTunnelClient() {
        return client;
    }

    /** Polls {@code condition} every 250 ms until true; throws {@link AssertionError} with {@code message} if not. */
    public static void await(BooleanSupplier condition, Duration timeout, java.util.function.Supplier<String> message) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(message.get());
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting: " + message.get(), e);
            }
        }
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
