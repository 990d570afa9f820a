package io.jobinfo.store.seatunnel.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Times SeaTunnel 2.3.8's REST API v1 on one member. In 2.3.8 it is served on the Hazelcast member port by
 * Hazelcast's text-command service, into which SeaTunnel's {@code NodeExtension} registers its
 * {@code RestHttpGetCommandProcessor} for HTTP GET; hazelcast.yaml's {@code network.rest-api.enabled: true} turns it
 * on ({@link ClusterFiles} writes it). {@code /hazelcast/rest/maps/running-jobs} decodes every entry of
 * {@code engine_runningJobInfo} on the member asked; {@code /hazelcast/rest/maps/job-info/<id>} one.
 */
final class RestTimer {

    static final String RUNNING_JOBS = "/hazelcast/rest/maps/running-jobs";
    static final String JOB_INFO = "/hazelcast/rest/maps/job-info/";
    static final String FINISHED_JOBS = "/hazelcast/rest/maps/finished-jobs";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final int port;

    RestTimer(int port) {
        this.port = port;
    }

    /**
     * {@code samples} GETs of running-jobs (the first, which fills whatever the member caches, reported apart from
     * the median of all), then {@code samples} GETs of job-info for each of {@code jobIds}, in turn; each answer must
     * be HTTP 200 and name the job(s).
     *
     * @throws IllegalStateException if a request fails or an answer is not what SeaTunnel sends for running jobs
     */
    Map<String, Object> measure(List<Long> jobIds, int samples) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("port", port);
        double[] all = new double[samples];
        long bytes = 0;
        for (int i = 0; i < samples; i++) {
            long t0 = System.nanoTime();
            String body = get(RUNNING_JOBS);
            all[i] = (System.nanoTime() - t0) / 1e6;
            if (!body.startsWith("[") || !body.contains(Long.toString(jobIds.get(jobIds.size() - 1)))) {
                throw new IllegalStateException("GET " + RUNNING_JOBS + " on port " + port + " does not list job "
                        + jobIds.get(jobIds.size() - 1) + ": " + body.substring(0, Math.min(300, body.length())));
            }
            bytes = body.length();
        }
        out.put("runningJobsFirstMillis", round(all[0]));
        out.put("runningJobsP50Millis", round(EngineScenario.percentile(all, 0.5)));
        out.put("runningJobsResponseChars", bytes);
        List<Double> one = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            for (long id : jobIds) {
                long t0 = System.nanoTime();
                String body = get(JOB_INFO + id);
                one.add((System.nanoTime() - t0) / 1e6);
                if (!body.contains("\"jobStatus\"")) {
                    throw new IllegalStateException("GET " + JOB_INFO + id + " on port " + port + " is no running"
                            + " job's: " + body.substring(0, Math.min(300, body.length())));
                }
            }
        }
        double[] v = one.stream().mapToDouble(Double::doubleValue).toArray();
        out.put("jobInfoRequests", v.length);
        out.put("jobInfoP50Millis", round(EngineScenario.percentile(v, 0.5)));
        out.put("jobInfoP99Millis", round(EngineScenario.percentile(v, 0.99)));
        return out;
    }

    /**
     * {@code samples} GETs of finished-jobs (the first, which fills whatever the member caches, reported apart from
     * the median of all), each of which must list {@code jobs} jobs, {@code lastId} among them; then {@code samples}
     * GETs of job-info of {@code lastId}.
     *
     * @throws IllegalStateException if a request fails or an answer does not list the jobs
     */
    Map<String, Object> measureFinished(long lastId, int jobs, int samples) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("port", port);
        double[] all = new double[samples];
        String quoted = "\"" + lastId + "\"";
        for (int i = 0; i < samples; i++) {
            long t0 = System.nanoTime();
            String body = get(FINISHED_JOBS);
            all[i] = (System.nanoTime() - t0) / 1e6;
            int listed = count(body, "\"jobId\"");
            if (!body.startsWith("[") || !body.contains(quoted) || listed != jobs) {
                throw new IllegalStateException("GET " + FINISHED_JOBS + " on port " + port + " lists " + listed
                        + " jobs, not " + jobs + " with " + lastId + " among them: "
                        + body.substring(0, Math.min(300, body.length())));
            }
            out.put("finishedJobsResponseChars", body.length());
        }
        out.put("finishedJobsFirstMillis", round(all[0]));
        out.put("finishedJobsP50Millis", round(EngineScenario.percentile(all, 0.5)));
        double[] one = new double[samples];
        for (int i = 0; i < samples; i++) {
            long t0 = System.nanoTime();
            String body = get(JOB_INFO + lastId);
            one[i] = (System.nanoTime() - t0) / 1e6;
            if (!body.contains("FINISHED") || !body.contains(quoted)) {
                throw new IllegalStateException("GET " + JOB_INFO + lastId + " on port " + port + " is no finished"
                        + " job's: " + body.substring(0, Math.min(300, body.length())));
            }
        }
        out.put("jobInfoP50Millis", round(EngineScenario.percentile(one, 0.5)));
        return out;
    }

    private static int count(String body, String token) {
        int n = 0;
        for (int i = body.indexOf(token); i >= 0; i = body.indexOf(token, i + token.length())) {
            n++;
        }
        return n;
    }

    private String get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(120)).GET().build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET " + request.uri() + ": HTTP " + r.statusCode() + " "
                        + r.body().substring(0, Math.min(300, r.body().length())));
            }
            return r.body();
        } catch (IOException e) {
            throw new IllegalStateException("GET " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: GET " + request.uri(), e);
        }
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
