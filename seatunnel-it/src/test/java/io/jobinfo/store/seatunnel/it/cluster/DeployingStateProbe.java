package io.jobinfo.store.seatunnel.it.cluster;

import com.hazelcast.map.IMap;
import io.jobinfo.store.seatunnel.harness.MemberProbe;
import org.apache.seatunnel.engine.common.Constant;
import org.apache.seatunnel.engine.server.dag.physical.PipelineLocation;
import org.apache.seatunnel.engine.server.execution.ExecutionState;
import org.apache.seatunnel.engine.server.execution.TaskGroupLocation;
import org.apache.seatunnel.engine.server.resourcemanager.resource.SlotProfile;

import java.util.Map;

/**
 * Runs inside a member: takes one task group of job {@code jobId} that runs on a worker other than the member on
 * {@code masterPort}, and writes {@code DEPLOYING} as its state in {@code engine_runningJobState}, what SeaTunnel 2.3.8's
 * master persists between {@code PhysicalVertex.makeTaskGroupDeploy()} and the answer of the worker's deploy (the
 * state a master leaves behind when it dies in that window, while the worker already runs the task). Returns
 * {@code "<task group location> on <worker port>"}, or {@code null} if every task group of the job runs on the
 * master's member.
 */
public final class DeployingStateProbe extends MemberProbe<String> {

    private static final long serialVersionUID = 1L;
    private final long jobId;
    private final int masterPort;
    private final boolean coordinator;

    /**
     * @param coordinator whether to take a coordinator task group (id 1: the source's split enumerator) or a task
     *                    group of the pipeline's tasks
     */
    public DeployingStateProbe(long jobId, int masterPort, boolean coordinator) {
        this.jobId = jobId;
        this.masterPort = masterPort;
        this.coordinator = coordinator;
    }

    @Override
    public String call() {
        IMap<PipelineLocation, Map<TaskGroupLocation, SlotProfile>> slots =
                instance().getMap(Constant.IMAP_OWNED_SLOT_PROFILES);
        IMap<Object, Object> states = instance().getMap(Constant.IMAP_RUNNING_JOB_STATE);
        for (Map.Entry<PipelineLocation, Map<TaskGroupLocation, SlotProfile>> pipeline : slots.entrySet()) {
            if (pipeline.getKey().getJobId() != jobId) {
                continue;
            }
            for (Map.Entry<TaskGroupLocation, SlotProfile> group : pipeline.getValue().entrySet()) {
                int worker = group.getValue().getWorker().getPort();
                boolean isCoordinator = group.getKey().getTaskGroupId() == 1;
                if (worker != masterPort && isCoordinator == coordinator
                        && ExecutionState.RUNNING.equals(states.get(group.getKey()))) {
                    states.put(group.getKey(), ExecutionState.DEPLOYING);
                    return group.getKey() + " on " + worker;
                }
            }
        }
        return null;
    }
}
