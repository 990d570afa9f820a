package io.jobinfo.store.seatunnel.harness;

import io.jobinfo.store.seatunnel.harness.ScenarioSettings.Variant;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenario JVM: {@code java -cp target/seatunnel-harness.jar:$(cat target/engine.classpath)
 * io.jobinfo.store.seatunnel.harness.EngineScenarioMain --out result.json --work-dir DIR [options]}. Started by
 * {@code jobinfo-store demo --engine seatunnel} and by the benchmark report, which run on Hazelcast 5.7 and so cannot
 * load SeaTunnel's client (Hazelcast 5.1) themselves. Progress goes to standard error, the figures to {@code --out}
 * as JSON, SeaTunnel's and Hazelcast's own log (WARN) to {@code <work-dir>/scenario.log}. {@code --scenario history
 * --retained 1000,10000} runs {@link HistoryScenario} instead of the running-job scenario, {@code --scenario
 * partition-hold --repeats 20} {@link PartitionHoldScenario}. {@code --imap-persistence on}
 * (default off) turns on SeaTunnel's IMap persistence in the running-job scenario's clusters and measures its log
 * ({@link EngineScenario}); {@code --dropin-store s3 --dropin-storage-yaml FILE} gives the drop-in of the running-job
 * or partition-hold scenario the store of that {@code jobinfo-storage:} section (lines under
 * {@code seatunnel.engine}) instead of a local one.
 *
 * <p>Exit codes: 0 the scenario ran (whether every job came back is in the JSON), 1 it could not run to the end
 * (the JSON's {@code error} says why and names the member log), 2 invalid arguments.
 */
public final class EngineScenarioMain {

    private EngineScenarioMain() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        Path out;
        ScenarioSettings settings;
        List<Integer> retained = null;
        PartitionHoldScenario partitionHold = null;
        ScaleOptions scale;
        try {
            Map<String, String> a = parse(args);
            out = Path.of(required(a, "--out"));
            Path work = Path.of(required(a, "--work-dir")).toAbsolutePath();
            List<Variant> variants = new ArrayList<>();
            for (String v : a.getOrDefault("--variants", "stock,dropin").split(",")) {
                variants.add(Variant.parse(v));
            }
            settings = new ScenarioSettings(intOf(a, "--members", 3), intOf(a, "--jobs", 6),
                    JobSize.parseList(a.getOrDefault("--sizes", "small,medium,large")), variants, work,
                    a.containsKey("--plugin-jar") ? Path.of(a.get("--plugin-jar")) : null,
                    Duration.ofSeconds(intOf(a, "--restore-timeout-seconds", 180)),
                    a.getOrDefault("--member-heap", "640m"), intOf(a, "--checkpoint-interval-ms", 5000),
                    intOf(a, "--rest-samples", 3));
            String storage = a.containsKey("--dropin-storage-yaml") ? readFile(a.get("--dropin-storage-yaml")) : null;
            scale = new ScaleOptions(onOff(a, "--imap-persistence"), a.getOrDefault("--dropin-store", "local").trim(),
                    storage);
            String scenario = a.getOrDefault("--scenario", "running");
            if (scenario.equals("history") && !scale.equals(ScaleOptions.DEFAULT)) {
                throw new IllegalArgumentException("--imap-persistence on and --dropin-store are for --scenario"
                        + " running and partition-hold only");
            }
            if (scenario.equals("partition-hold") && scale.imapPersistence()) {
                throw new IllegalArgumentException("--imap-persistence on is for --scenario running only");
            }
            if (scenario.equals("history")) {
                retained = new ArrayList<>();
                for (String n : a.getOrDefault("--retained", "1000,10000").split(",")) {
                    retained.add(intOf(Map.of("--retained", n), "--retained", 0));
                }
                new HistoryScenario(settings, retained, System.err);
            } else if (scenario.equals("partition-hold")) {
                partitionHold = new PartitionHoldScenario(settings, intOf(a, "--repeats",
                        PartitionHoldScenario.DEFAULT_REPEATS), scale, System.err);
            } else if (!scenario.equals("running")) {
                throw new IllegalArgumentException("--scenario must be running (the default), history or"
                        + " partition-hold, got '" + scenario + "'");
            }
            if (settings.pluginJar() != null && !Files.isRegularFile(settings.pluginJar())) {
                throw new IllegalArgumentException("--plugin-jar " + settings.pluginJar() + " is not a file: build it"
                        + " with mvn -B -q -DskipTests -pl seatunnel-harness -am package");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("EngineScenarioMain: " + e.getMessage());
            return 2;
        }
        try {
            Files.createDirectories(settings.workDir());
            configureLogging(settings.workDir());
        } catch (IOException e) {
            System.err.println("EngineScenarioMain: cannot write to the work directory " + settings.workDir() + ": " + e);
            return 2;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("scenario", "real SeaTunnel 2.3.8 cluster of member processes, stock vs drop-in");
        result.put("startedAt", Instant.now().toString());
        result.put("java", System.getProperty("java.version"));
        result.put("members", settings.members());
        result.put("jobs", settings.jobs());
        result.put("sizes", settings.sizes().stream().map(JobSize::id).toList());
        result.put("workDir", settings.workDir().toString());
        int exit = 0;
        try {
            result.put("variants", partitionHold != null ? partitionHold.runAll()
                    : retained == null ? new EngineScenario(settings, System.err, scale).runAll()
                    : new HistoryScenario(settings, retained, System.err).runAll());
        } catch (Exception | AssertionError e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            result.put("error", e.getMessage() == null ? e.toString() : e.getMessage());
            result.put("errorTrace", trace.toString());
            System.err.println("EngineScenarioMain: the scenario stopped: " + result.get("error"));
            exit = 1;
        }
        try {
            Files.writeString(out, Json.write(result), StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println("EngineScenarioMain: cannot write " + out + ": " + e);
            return 1;
        }
        return exit;
    }

    /** SeaTunnel's client logs through log4j2: WARN, to a file, so standard error carries the progress only. */
    private static void configureLogging(Path work) throws IOException {
        if (System.getProperty("log4j2.configurationFile") != null) {
            return;
        }
        Path config = work.resolve("scenario-log4j2.properties");
        Files.writeString(config, """
                status = error
                appender.file.type = File
                appender.file.name = file
                appender.file.fileName = %s
                appender.file.layout.type = PatternLayout
                appender.file.layout.pattern = %%d{HH:mm:ss.SSS} %%-5p [%%t] %%c{1.} - %%m%%n
                rootLogger.level = warn
                rootLogger.appenderRef.file.ref = file
                """.formatted(work.resolve("scenario.log").toString().replace("\\", "/")), StandardCharsets.UTF_8);
        System.setProperty("log4j2.configurationFile", config.toString());
        System.setProperty("hazelcast.logging.type", "log4j2");
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got '" + args[i] + "'");
            }
            a.put(args[i], args[++i]);
        }
        for (String k : a.keySet()) {
            if (!List.of("--out", "--work-dir", "--variants", "--members", "--jobs", "--sizes", "--plugin-jar",
                    "--restore-timeout-seconds", "--member-heap", "--checkpoint-interval-ms", "--rest-samples",
                    "--scenario", "--retained", "--repeats", "--imap-persistence", "--dropin-store",
                    "--dropin-storage-yaml")
                    .contains(k)) {
                throw new IllegalArgumentException("unknown option " + k);
            }
        }
        return a;
    }

    private static String required(Map<String, String> a, String key) {
        String v = a.get(key);
        if (v == null) {
            throw new IllegalArgumentException(key + " is required");
        }
        return v;
    }

    private static String readFile(String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("--dropin-storage-yaml " + file + " cannot be read: " + e);
        }
    }

    /** {@code on} or {@code off} (the default when absent). */
    private static boolean onOff(Map<String, String> a, String key) {
        String v = a.getOrDefault(key, "off").trim();
        if (!v.equals("on") && !v.equals("off")) {
            throw new IllegalArgumentException(key + " must be on or off, got '" + v + "'");
        }
        return v.equals("on");
    }

    private static int intOf(Map<String, String> a, String key, int dflt) {
        String v = a.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, got '" + v + "'");
        }
    }
}
