package io.jobinfo.store.seatunnel.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes SeaTunnel job files: a FakeSource with {@code tables} tables of {@code columns} columns
 * ({@code tables_configs}) into a Console sink that prints nothing ({@code log.print.data = false}). A streaming job
 * never ends by itself; a batch job ends when FakeSource has produced its rows.
 */
public final class FakeJobs {

    private FakeJobs() {}

    /**
     * Writes the job file {@code dir/<name>.conf}.
     *
     * @throws UncheckedIOException if it cannot be written
     */
    public static Path write(Path dir, String name, int tables, int columns, boolean streaming) {
        return write(dir, name, tables, columns, streaming, 5000);
    }

    /**
     * Writes the job file {@code dir/<name>.conf} with a checkpoint every {@code checkpointMillis}.
     *
     * @throws UncheckedIOException if it cannot be written
     */
    public static Path write(Path dir, String name, int tables, int columns, boolean streaming, int checkpointMillis) {
        StringBuilder sb = new StringBuilder(256 + tables * (64 + columns * 24));
        sb.append("env {\n  parallelism = 1\n  job.mode = \"").append(streaming ? "STREAMING" : "BATCH")
                .append("\"\n  checkpoint.interval = ").append(checkpointMillis).append("\n}\n");
        sb.append("source {\n  FakeSource {\n    tables_configs = [\n");
        for (int t = 0; t < tables; t++) {
            sb.append("      {\n        row.num = 2\n        schema {\n          table = \"it_db.t_").append(t)
                    .append("\"\n          fields {\n");
            for (int c = 0; c < columns; c++) {
                sb.append("            c_").append(c).append(" = ").append(c % 2 == 0 ? "string" : "int").append('\n');
            }
            sb.append("          }\n        }\n      }").append(t + 1 < tables ? "," : "").append('\n');
        }
        sb.append("    ]\n  }\n}\n");
        sb.append("sink {\n  Console {\n    log.print.data = false\n  }\n}\n");
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(name + ".conf");
            Files.writeString(file, sb, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job file " + name + " in " + dir, e);
        }
    }
}
