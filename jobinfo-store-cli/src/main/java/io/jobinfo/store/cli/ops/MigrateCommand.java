package io.jobinfo.store.cli.ops;

import io.jobinfo.store.ops.MigrationReport;
import io.jobinfo.store.ops.Migrator;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code migrate}: inline values of the job map to pointers (or back, with {@code --rollback}). */
@Command(name = "migrate", header = "Moves the inline jobs of the job map to the store, or back with --rollback.",
        exitCodeList = {"0:every examined entry is in the target shape (converted or skipped)",
            "1:some entries failed (listed with reasons; they are unchanged) or the run was interrupted: rerun",
            "2:invalid arguments or configuration; nothing was changed",
            "3:the cluster or the store could not be reached; nothing was changed",
            ExitCodes.HELP_INTERNAL})
public final class MigrateCommand extends OpsCommand {

    @Mixin
    ValueFormatOption valueFormat;

    @Option(names = "--dry-run")
    boolean dryRun;

    @Option(names = "--rollback")
    boolean rollback;

    @Option(names = "--parallelism", defaultValue = "" + Migrator.DEFAULT_PARALLELISM, paramLabel = "N")
    int parallelism;

    @Option(names = "--attempts", defaultValue = "3", paramLabel = "N")
    int attempts;

    @Option(names = "--backup-count", defaultValue = "1", paramLabel = "N")
    int backupCount;

    @Mixin
    ProgressOption progress;

    @Override
    int execute() {
        List<String> problems = new ArrayList<>();
        if (parallelism < 1 || parallelism > 64) {
            problems.add("--parallelism must be between 1 and 64, got " + parallelism);
        }
        if (attempts < 1 || attempts > 100) {
            problems.add("--attempts must be between 1 and 100, got " + attempts);
        }
        if (backupCount < 0 || backupCount > 6) {
            problems.add("--backup-count must be between 0 and 6, got " + backupCount);
        }
        if (!problems.isEmpty()) {
            throw new OpsException(ExitCodes.USAGE, String.join("; ", problems));
        }
        Migrator.Direction direction = rollback ? Migrator.Direction.ROLLBACK : Migrator.Direction.MIGRATE;
        String verb = (rollback ? "rollback" : "migrate") + (dryRun ? " (dry run)" : "");
        try (OpsSession session = OpsSession.open(connection)) {
            if (valueFormat.valueFormat == ValueFormatOption.Choice.seatunnel && !rollback && !dryRun) {
                DropInPresence.requireEverywhere(session.client());
            }
            if (valueFormat.valueFormat == ValueFormatOption.Choice.seatunnel && rollback) {
                DropInPresence.requireNoneActive(session.client());
            }
            ProgressDisplay display = progress.display(err(), verb);
            Migrator migrator = Migrator.builder(session.map(), session.store())
                    .parallelism(parallelism).maxAttempts(attempts).copies(backupCount + 1)
                    .formats(valueFormat.formats())
                    .claims(valueFormat.formats().deleteClaims(session.client(), session.map(), "migrate",
                            java.time.Clock.systemUTC()))
                    .listener(new Migrator.Listener() {
                        @Override
                        public void started(Migrator.Direction d, int entries) {
                            display.start(entries);
                        }

                        @Override
                        public void entryDone(Migrator.EntryResult result) {
                            display.step(result.payloadBytes());
                        }
                    }).build();
            // Ctrl-C / SIGTERM: finish the entries in progress, examine no more, print the report (waiting at most
            // 30 s), then end the JVM with the report's exit code: 1 for an interrupted run, as the help says (the
            // JVM would otherwise exit 130 or 143 on its own, whatever the report). Each entry is inline or a valid
            // pointer either way; the hook makes the report and the exit code honest.
            Thread main = Thread.currentThread();
            CountDownLatch reported = new CountDownLatch(1);
            AtomicInteger exitAfterSignal = new AtomicInteger(ExitCodes.PROBLEMS);
            Thread hook = new Thread(() -> {
                migrator.cancel();
                main.interrupt();
                try {
                    reported.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                // no report within 30 s: still exit 1 (interrupted; every entry is inline or a valid pointer)
                Runtime.getRuntime().halt(exitAfterSignal.get());
            }, "jobinfo-migrate-shutdown");
            boolean hooked = addShutdownHook(hook);
            int exit = ExitCodes.PROBLEMS;
            try {
                exit = runAndReport(session, migrator, direction, display);
                exitAfterSignal.set(exit);
            } finally {
                reported.countDown();
                if (hooked) {
                    removeShutdownHook(hook); // a signal from here on ends the JVM with the exit code too
                }
                Thread.interrupted();
            }
            return exit;
        }
    }

    /** Runs the migration or rollback, prints the report and returns the exit code. */
    private int runAndReport(OpsSession session, Migrator migrator, Migrator.Direction direction,
            ProgressDisplay display) {
        // the client gives up after --connect-timeout without the cluster: stop instead of failing entry by entry
        java.util.UUID lifecycle = session.client().getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == com.hazelcast.core.LifecycleEvent.LifecycleState.SHUTTING_DOWN) {
                migrator.cancel();
            }
        });
        MigrationReport report;
        try {
            report = direction == Migrator.Direction.MIGRATE ? migrator.migrate(dryRun) : migrator.rollback(dryRun);
        } finally {
            display.finish();
            Thread.interrupted(); // the report tells; do not carry the flag into close()
        }
        int exit = report.complete() ? ExitCodes.OK : ExitCodes.PROBLEMS;
        boolean clusterLost = !session.client().getLifecycleService().isRunning();
        if (clusterLost) {
            exit = ExitCodes.UNREACHABLE;
        } else {
            session.client().getLifecycleService().removeLifecycleListener(lifecycle);
        }
        if (json) {
            printJson(toJson(report, session.store().type(), exit));
        } else {
            printReport(out(), report, session.store().type());
        }
        if (clusterLost) {
            err().println("jobinfo-store migrate: the connection to the cluster was lost and not regained"
                    + " within --connect-timeout; every entry is inline or a valid pointer, rerun when the"
                    + " cluster is reachable");
            err().flush();
        }
        return exit;
    }

    private static boolean addShutdownHook(Thread hook) {
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            return true;
        } catch (IllegalStateException e) {
            return false; // already shutting down
        }
    }

    private static void removeShutdownHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down
        }
    }

    static Map<String, Object> toJson(MigrationReport r, String storeType, int exit) {
        Map<String, Object> m = new LinkedHashMap<>();
        boolean migrate = r.direction() == Migrator.Direction.MIGRATE;
        m.put("command", migrate ? "migrate" : "rollback");
        m.put("dryRun", r.dryRun());
        m.put("map", r.mapName());
        m.put("storeType", storeType);
        m.put("storeId", r.storeId());
        m.put("scanned", r.scanned());
        m.put(migrate ? "migrated" : "rolledBack", r.converted());
        m.put("skipped", r.skipped().size());
        m.put("failed", r.failed().size());
        m.put("notProcessed", r.notProcessed());
        m.put("retries", r.retries());
        m.put("payloadBytes", r.payloadBytes());
        m.put("clusterHeapFreedBytes", r.clusterHeapFreed());
        m.put("copies", r.copies());
        m.put("durationMillis", r.duration().toMillis());
        m.put("bytesPerSecond", r.duration().toNanos() == 0 ? 0
                : (long) (r.payloadBytes() / (r.duration().toNanos() / 1e9)));
        m.put("cancelled", r.cancelled());
        Map<String, Integer> reasons = new LinkedHashMap<>();
        r.skippedByReason().forEach((k, v) -> reasons.put(k.name(), v));
        m.put("skippedByReason", reasons);
        // entries already in the target shape are only counted (a rerun over a large map would list them all)
        m.put("skippedEntries", entries(r.skipped().stream().filter(e -> e.reason() != Migrator.Reason.ALREADY_POINTER
                && e.reason() != Migrator.Reason.ALREADY_INLINE).collect(Collectors.toList())));
        m.put("failures", entries(r.failed()));
        m.put("exitCode", exit);
        return m;
    }

    private static List<Map<String, Object>> entries(List<Migrator.EntryResult> results) {
        return jsonList(results, (e, m) -> {
            m.put("jobId", e.jobId());
            m.put("reason", e.reason().name());
            m.put("message", e.describe());
        });
    }

    static void printReport(PrintWriter out, MigrationReport r, String storeType) {
        boolean migrate = r.direction() == Migrator.Direction.MIGRATE;
        String would = r.dryRun() ? "would be " : "";
        out.printf("%s of map %s %s store %s (%s)%s%n", migrate ? "Migration" : "Rollback", r.mapName(),
                migrate ? "to" : "from", r.storeId(), storeType, r.dryRun() ? ", DRY RUN: nothing was changed" : "");
        out.printf("  entries examined    %8d%s%n", r.scanned() - r.notProcessed(),
                r.notProcessed() > 0 ? " (" + r.notProcessed() + " not reached: interrupted)" : "");
        double secs = Math.max(1e-3, r.duration().toNanos() / 1e9);
        out.printf("  %-19s %8d  (%s %s, %s/s)%n", would + (migrate ? "migrated" : "rolled back"), r.converted(),
                bytes(r.payloadBytes()), migrate ? (r.dryRun() ? "to write" : "written") : (r.dryRun() ? "to read"
                        : "read back"), bytes((long) (r.payloadBytes() / secs)));
        StringBuilder reasons = new StringBuilder();
        r.skippedByReason().forEach((k, v) -> reasons.append(reasons.length() == 0 ? "  (" : ", ")
                .append(k.text()).append(": ").append(v));
        if (reasons.length() > 0) {
            reasons.append(')');
        }
        out.printf("  skipped             %8d%s%n", r.skipped().size(), reasons);
        out.printf("  failed              %8d%n", r.failed().size());
        if (r.retries() > 0) {
            out.printf("  retried (changed meanwhile) %d time(s)%n", r.retries());
        }
        out.printf("  cluster heap %s %s  (estimate: inline minus pointer value bytes, %d copies)%n",
                r.clusterHeapFreed() >= 0 ? (r.dryRun() ? "to free " : "freed   ")
                        : (r.dryRun() ? "to use  " : "used    "), bytes(Math.abs(r.clusterHeapFreed())), r.copies());
        out.printf("  took %s%n", DurationConverter.format(r.duration()));
        if (!r.failed().isEmpty()) {
            out.println("Failed (each entry is unchanged; fix the cause and rerun):");
            for (Migrator.EntryResult e : r.failed()) {
                out.printf("  job %d: %s%n", e.jobId(), e.describe());
            }
        }
        if (r.cancelled()) {
            out.println("Interrupted: rerun to finish; entries already converted are skipped.");
        }
        out.flush();
    }
}
