package io.jobinfo.store.seatunnel.it.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The samples of a Prometheus text exposition (format 0.0.4, what SeaTunnel 2.3.8 serves at
 * {@link #METRICS}): one per line {@code name{label="value",...} number}; comments left out.
 */
public final class PrometheusText {

    /** SeaTunnel 2.3.8's telemetry endpoint on the member port (Prometheus text format 0.0.4). */
    public static final String METRICS = "/hazelcast/rest/instance/metrics";
    /** The same registry in the OpenMetrics format. */
    public static final String OPEN_METRICS = "/hazelcast/rest/instance/openmetrics";

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)(?:\\s+\\S+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    /** One sample: its name, labels and value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    private PrometheusText() {}

    /** Every sample of {@code body}. */
    public static List<Sample> parse(String body) {
        List<Sample> samples = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.trim());
            if (!m.matches()) {
                throw new AssertionError("not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), Collections.unmodifiableMap(labels), number(m.group(3))));
        }
        return samples;
    }

    private static double number(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }
}
