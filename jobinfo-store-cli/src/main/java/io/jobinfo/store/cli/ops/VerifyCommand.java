package io.jobinfo.store.cli.ops;

import io.jobinfo.store.lifecycle.OrphanRule;
import io.jobinfo.store.ops.Verifier;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code verify}: every pointer resolves and verifies; lists orphans and inline leftovers. Reads only. */
@Command(name = "verify", header = "Checks every pointer of the job map against its blob and changes nothing.",
        exitCodeList = {"0:every pointer verified; no inline values, orphans or leftovers",
            "1:something is wrong (listed): a broken pointer or undecodable payload, a map value that does not"
                + " decode (not deserialized), an inline value, an orphan or a leftover",
            ExitCodes.HELP_USAGE,
            ExitCodes.HELP_UNREACHABLE,
            ExitCodes.HELP_INTERNAL,
            ExitCodes.HELP_STOPPED_UNCHANGED})
public final class VerifyCommand extends OpsCommand {

    @Mixin
    ValueFormatOption valueFormat;

    @Option(names = "--parallelism", defaultValue = "4", paramLabel = "N")
    int parallelism;

    @Option(names = "--ignore-younger-than", defaultValue = "0s", paramLabel = "DURATION",
            converter = DurationConverter.class)
    Duration ignoreYoungerThan;

    @Mixin
    ProgressOption progress;

    @Override
    int execute() {
        if (parallelism < 1 || parallelism > 64) {
            throw new OpsException(ExitCodes.USAGE, "--parallelism must be between 1 and 64, got "
                    + parallelism);
        }
        try (OpsSession session = OpsSession.open(connection)) {
            ProgressDisplay display = progress.display(err(), "verify");
            Verifier verifier = new Verifier(session.map(), session.store(), parallelism, Clock.systemUTC(),
                    new OrphanRule(ignoreYoungerThan), valueFormat.formats(), KnownCodecs.all());
            Verifier.Report report;
            try {
                display.start(session.map().size());
                report = verifier.run(id -> display.step(0));
            } catch (JobInfoStoreException e) {
                throw new OpsException(ExitCodes.UNREACHABLE, "listing the store failed: "
                        + e.getMessage(), e);
            } finally {
                display.finish();
            }
            List<StoredBlob> oldOrphans = old(report, report.orphans());
            List<StoredBlob> oldLeftovers = old(report, report.incomplete());
            boolean ok = report.broken().isEmpty() && report.inline().isEmpty() && oldOrphans.isEmpty()
                    && oldLeftovers.isEmpty();
            int exit = ok ? ExitCodes.OK : ExitCodes.PROBLEMS;
            if (json) {
                printJson(toJson(report, session.map().getName(), session.store().storeId(), exit));
            } else {
                print(out(), report, session.map().getName(), session.store().storeId(), ok);
            }
            return exit;
        }
    }

    private List<StoredBlob> old(Verifier.Report report, List<StoredBlob> blobs) {
        List<StoredBlob> old = new ArrayList<>();
        for (StoredBlob b : blobs) {
            if (report.pastGrace(b)) {
                old.add(b);
            }
        }
        return old;
    }

    private Map<String, Object> toJson(Verifier.Report r, String map, String storeId, int exit) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "verify");
        m.put("map", map);
        m.put("storeId", storeId);
        m.put("entries", r.entries());
        m.put("validPointers", r.validPointers());
        m.put("broken", jsonList(r.broken(), (p, e) -> {
            e.put("jobId", p.jobId());
            e.put("location", p.location().toString());
            e.put("reason", p.reason());
        }));
        m.put("inline", jsonList(r.inline(), (i, e) -> {
            e.put("jobId", i.jobId());
            e.put("encodedBytes", i.encodedBytes());
            e.put("format", i.format());
        }));
        m.put("orphans", blobs(r, r.orphans()));
        m.put("incomplete", blobs(r, r.incomplete()));
        m.put("exitCode", exit);
        return m;
    }

    private List<Map<String, Object>> blobs(Verifier.Report r, List<StoredBlob> list) {
        return jsonList(list, (b, e) -> {
            e.put("jobId", b.jobId());
            e.put("location", b.location().toString());
            e.put("sizeBytes", b.sizeBytes());
            e.put("ageSeconds", Verifier.age(r, b).getSeconds());
            e.put("counted", r.pastGrace(b));
        });
    }

    private void print(PrintWriter out, Verifier.Report r, String map, String storeId, boolean ok) {
        out.printf("Verify of map %s against store %s%n", map, storeId);
        out.printf("  entries             %8d%n", r.entries());
        out.printf("  valid pointers      %8d%n", r.validPointers());
        out.printf("  broken pointers     %8d%n", r.broken().size());
        out.printf("  inline values       %8d%s%n", r.inline().size(), r.inline().isEmpty() ? ""
                : "  (run 'migrate' to move them to the store)");
        out.printf("  orphan blobs        %8d%s%n", r.orphans().size(), r.orphans().isEmpty() ? ""
                : "  (run 'gc' to list, 'gc --delete' to remove those past the grace period)");
        out.printf("  incomplete writes   %8d%n", r.incomplete().size());
        for (Verifier.Problem p : r.broken()) {
            out.printf("BROKEN job %d at %s: %s%n", p.jobId(), p.location(), p.reason());
        }
        for (Verifier.InlineEntry i : r.inline()) {
            out.printf("INLINE job %d (%s in the map, %s)%n", i.jobId(), bytes(i.encodedBytes()), i.format());
        }
        for (StoredBlob b : r.orphans()) {
            out.printf("ORPHAN job %d at %s (%s, age %s)%n", b.jobId(), b.location(), bytes(b.sizeBytes()),
                    DurationConverter.format(Verifier.age(r, b)));
        }
        for (StoredBlob b : r.incomplete()) {
            out.printf("INCOMPLETE job %d at %s (%s, age %s)%n", b.jobId(), b.location(), bytes(b.sizeBytes()),
                    DurationConverter.format(Verifier.age(r, b)));
        }
        out.println(ok ? "OK" : "PROBLEMS FOUND");
        out.flush();
    }
}
