package io.jobinfo.store.seatunnel.harness.junit;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What SeaTunnel 2.3.8's REST endpoints must show of running jobs, whatever holds their bytes. */
public final class RestAssertions {

    private static final RestClient REST = new RestClient();

    private RestAssertions() {}

    /**
     * The member at {@code port} lists every job of {@code jobs} (tables -> job id) in {@code running-jobs} and shows
     * each in full in {@code running-job/<id>} and {@code job-info/<id>}; jobs are named {@code <prefix><tables>-tables}.
     */
    public static void assertRestShowsEveryJob(int port, Map<Integer, Long> jobs, String namePrefix) {
        RestClient.Response all = REST.get(port, RestClient.RUNNING_JOBS);
        assertThat(all.status()).as("GET running-jobs on %d: %s", port, all.body()).isEqualTo(200);
        Map<Long, JsonNode> byId = new LinkedHashMap<>();
        for (JsonNode job : all.json()) {
            byId.put(Long.parseLong(job.get("jobId").asText()), job);
        }
        assertThat(byId.keySet()).as("running jobs listed by member %d", port).containsAll(jobs.values());
        for (Map.Entry<Integer, Long> e : jobs.entrySet()) {
            int tables = e.getKey();
            long id = e.getValue();
            assertFullJob(byId.get(id), id, namePrefix + tables + "-tables");
            RestClient.Response one = REST.get(port, RestClient.RUNNING_JOB + id);
            assertThat(one.status()).isEqualTo(200);
            assertFullJob(one.json(), id, namePrefix + tables + "-tables");
            RestClient.Response info = REST.get(port, RestClient.JOB_INFO + id);
            assertThat(info.status()).isEqualTo(200);
            assertFullJob(info.json(), id, namePrefix + tables + "-tables");
        }
    }

    /** The member at {@code port} shows job {@code id} in full in {@code running-job/<id>} and {@code job-info/<id>}. */
    public static void assertRestShowsJob(int port, long id, String name) {
        RestClient.Response one = REST.get(port, RestClient.RUNNING_JOB + id);
        assertThat(one.status()).as("running-job/%d: %s", id, one.body()).isEqualTo(200);
        assertFullJob(one.json(), id, name);
        RestClient.Response info = REST.get(port, RestClient.JOB_INFO + id);
        assertThat(info.status()).as("job-info/%d: %s", id, info.body()).isEqualTo(200);
        assertFullJob(info.json(), id, name);
    }

    /** The HTTP status of {@code running-jobs} on the member at {@code port}. */
    public static int runningJobsStatus(int port) {
        return REST.get(port, RestClient.RUNNING_JOBS).status();
    }

    /**
     * The job as REST shows it. Name, env options and DAG come from the job's {@code LogicalDag}, which the member
     * decodes from the {@code JobImmutableInformation} of {@code engine_runningJobInfo}: they are there only if the
     * whole job could be read.
     */
    public static void assertFullJob(JsonNode job, long id, String name) {
        assertThat(job).as("job %d in the REST answer", id).isNotNull();
        assertThat(job.path("jobId").asText()).isEqualTo(String.valueOf(id));
        assertThat(job.path("jobName").asText()).as("jobName of job %d: %s", id, job).isEqualTo(name);
        assertThat(job.path("jobStatus").asText()).isEqualTo("RUNNING");
        assertThat(job.path("envOptions").path("job.mode").asText()).as("envOptions of job %d", id)
                .isEqualTo("STREAMING");
        String dag = job.path("jobDag").toString();
        assertThat(dag).as("jobDag of job %d", id).contains("FakeSource").contains("Console-MultiTableSink");
    }
}
