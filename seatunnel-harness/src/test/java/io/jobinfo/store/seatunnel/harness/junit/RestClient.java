package io.jobinfo.store.seatunnel.harness.junit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * GETs SeaTunnel 2.3.8's REST endpoints, served by Hazelcast's REST API on the member port
 * ({@code network.rest-api} in hazelcast.yaml): {@code /hazelcast/rest/maps/running-jobs} (every running job, each
 * decoded from {@code engine_runningJobInfo}), {@code /hazelcast/rest/maps/running-job/<id>} and
 * {@code /hazelcast/rest/maps/job-info/<id>}.
 */
public final class RestClient {

    public static final String RUNNING_JOBS = "/hazelcast/rest/maps/running-jobs";
    public static final String RUNNING_JOB = "/hazelcast/rest/maps/running-job/";
    public static final String JOB_INFO = "/hazelcast/rest/maps/job-info/";

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** The HTTP status and body of GET {@code path} on the member at {@code port}. */
    public record Response(int status, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (HTTP " + status + "): "
                        + body.substring(0, Math.min(500, body.length())), e);
            }
        }
    }

    /**
     * GETs {@code path} on 127.0.0.1:{@code port}.
     *
     * @throws IllegalStateException if the request cannot be made
     */
    public Response get(int port, String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).GET().build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: GET " + request.uri(), e);
        }
    }
}
