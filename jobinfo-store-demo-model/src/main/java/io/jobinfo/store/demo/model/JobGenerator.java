package io.jobinfo.store.demo.model;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Generates realistic job descriptions for tests, the demo and the benchmarks: a multi-table CDC-style logical DAG
 * (sources with many table schemas, transforms, sinks) serialized as JSON, grown table by table until the encoded job
 * is about the requested size. Deterministic for a given seed and job id.
 */
public final class JobGenerator {

    private static final String[] TYPES = {"BIGINT", "INT", "VARCHAR(255)", "DECIMAL(38,10)", "TIMESTAMP(6)",
        "DATE", "BOOLEAN", "DOUBLE", "TEXT", "VARBINARY(1024)", "TINYINT", "JSON"};
    private static final String[] WORDS = {"order", "customer", "item", "payment", "shipment", "invoice", "account",
        "region", "product", "supplier", "ledger", "event", "session", "campaign", "warehouse", "refund", "audit"};

    private final long seed;

    public JobGenerator(long seed) {
        this.seed = seed;
    }

    /**
     * A job whose Kryo encoding is about {@code targetBytes} (within a few hundred bytes for targets above 4 KiB).
     */
    public JobImmutableInformation generate(long jobId, int targetBytes) {
        SplittableRandom random = new SplittableRandom(seed * 31 + jobId);
        String jobName = "cdc-" + WORDS[random.nextInt(WORDS.length)] + "-sync-" + Long.toUnsignedString(jobId);
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("job.mode", "STREAMING");
        env.put("parallelism", 2 + random.nextInt(6));
        env.put("checkpoint.interval", 10_000L + random.nextInt(50_000));
        env.put("job.retry.times", 3);
        env.put("read_limit.bytes_per_second", 7_000_000.5);
        env.put("savemode.execute.enabled", Boolean.TRUE);
        List<String> jars = Arrays.asList(
                "file:///opt/seatunnel/connectors/connector-cdc-mysql-2.3.9.jar",
                "file:///opt/seatunnel/connectors/connector-jdbc-2.3.9.jar",
                "file:///opt/seatunnel/lib/mysql-connector-j-8.0.33.jar");
        LinkedHashSet<ConnectorJarIdentifier> connectors = new LinkedHashSet<>();
        connectors.add(new ConnectorJarIdentifier(1000 + random.nextInt(1000), "CONNECTOR_PLUGIN_JAR", "MySQL-CDC",
                "/seatunnel/connector-jars/" + jobId + "/connector-cdc-mysql-2.3.9.jar",
                "connector-cdc-mysql-2.3.9.jar"));
        connectors.add(new ConnectorJarIdentifier(2000 + random.nextInt(1000), "CONNECTOR_PLUGIN_JAR", "Jdbc",
                "/seatunnel/connector-jars/" + jobId + "/connector-jdbc-2.3.9.jar", "connector-jdbc-2.3.9.jar"));
        int fixedOverhead = 600 + jobName.length();
        byte[] dag = logicalDag(random, Math.max(64, targetBytes - fixedOverhead));
        return new JobImmutableInformation(jobId, jobName, random.nextInt(10) == 0,
                1_700_000_000_000L + random.nextInt(1_000_000_000), dag, new JobConfig(jobName, env), jars,
                connectors);
    }

    private static byte[] logicalDag(SplittableRandom random, int targetBytes) {
        StringBuilder sb = new StringBuilder(targetBytes + 2048);
        sb.append("{\"vertices\":[");
        int table = 0;
        int vertexTail = "]}],\"edges\":[{\"from\":1,\"to\":2},{\"from\":2,\"to\":3}]}".length() + 400;
        sb.append("{\"id\":1,\"type\":\"source\",\"plugin\":\"MySQL-CDC\",\"parallelism\":4,")
                .append("\"config\":{\"base-url\":\"jdbc:mysql://mysql-primary:3306/shop\",\"startup.mode\":\"initial\"},")
                .append("\"tables\":[");
        while (sb.length() < targetBytes - vertexTail - 3000) {
            if (table > 0) {
                sb.append(',');
            }
            appendTable(sb, random, table++);
        }
        sb.append("],\"description\":\"");
        int pad = targetBytes - vertexTail + 380 - sb.length();
        for (int i = 0; i < pad; i++) {
            sb.append(WORDS[random.nextInt(WORDS.length)].charAt(0));
        }
        sb.append("\"},{\"id\":2,\"type\":\"transform\",\"plugin\":\"Sql\",\"query\":\"select * from source where ")
                .append(WORDS[random.nextInt(WORDS.length)]).append("_id is not null\"},")
                .append("{\"id\":3,\"type\":\"sink\",\"plugin\":\"Jdbc\",\"tables\":").append(table)
                .append(",\"config\":{\"url\":\"jdbc:postgresql://warehouse:5432/dw\",\"batch_size\":1000}}");
        sb.append("],\"edges\":[{\"from\":1,\"to\":2},{\"from\":2,\"to\":3}]}");
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        return bytes;
    }

    private static void appendTable(StringBuilder sb, SplittableRandom random, int index) {
        String name = WORDS[random.nextInt(WORDS.length)] + "_" + WORDS[random.nextInt(WORDS.length)] + "_" + index;
        sb.append("{\"tablePath\":\"shop.").append(name).append("\",\"primaryKey\":[\"id\"],\"columns\":[");
        int columns = 8 + random.nextInt(25);
        for (int c = 0; c < columns; c++) {
            if (c > 0) {
                sb.append(',');
            }
            sb.append("{\"name\":\"").append(c == 0 ? "id" : WORDS[random.nextInt(WORDS.length)] + "_" + c)
                    .append("\",\"type\":\"").append(TYPES[random.nextInt(TYPES.length)])
                    .append("\",\"nullable\":").append(c != 0 && random.nextBoolean())
                    .append(",\"comment\":\"").append(Long.toHexString(random.nextLong())).append("\"}");
        }
        sb.append("],\"options\":{\"connector\":\"mysql-cdc\",\"server-id\":\"").append(5400 + index)
                .append("\"}}");
    }
}
