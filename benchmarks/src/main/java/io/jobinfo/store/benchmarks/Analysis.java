package io.jobinfo.store.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * For each missed target, a paragraph that names what bounds it, quoting this run's figures. The paragraphs are fixed
 * text written after profiling (see the notes in each); the numbers in them are this run's.
 */
final class Analysis {

    private Analysis() {
    }

    static List<String> explain(BenchOptions o, Metrics m, List<String> stores, int p) {
        List<String> out = new ArrayList<>();
        double inline = m.median("memory.inline");
        for (String s : stores) {
            double ptr = m.median("memory." + s);
            if (ptr > inline / 1000) {
                out.add(String.format(Locale.ROOT, "**1. Memory, %s: %.0f bytes per job against a target of %.0f"
                        + " (1/1000 of the inline %,.0f).** The pointer's entry cost is fixed (Hazelcast's record,"
                        + " key and value `Data`, two copies); the inline cost scales with the job. With jobs of"
                        + " %s the ratio is 1/%.0f; the target holds from jobs of about %s up.", s, ptr,
                        inline / 1000, inline, ReportWriter.bytes(m.median("jobs.payloadBytesPerJob")), inline / ptr,
                        ReportWriter.bytes(m.median("jobs.payloadBytesPerJob") * ptr * 1000 / inline)));
            }
        }
        if (stores.contains("local")) {
            double k = m.median("restore.local.killToAll");
            double base = m.median("restore.inline.killToAll");
            if (k / base > 0.6) {
                out.add(String.format(Locale.ROOT, "**3. Kill -> restored on local: %.0f ms, %.2fx the inline"
                        + " baseline's %.0f ms.** Both clocks include Hazelcast noticing the dead master (%.0f ms for"
                        + " the pointer run, %.0f ms for the inline one; the same mechanism, not this library's). After"
                        + " that, the pointer run took %.0f ms against the inline run's %.0f ms (%.2fx): it reads,"
                        + " verifies (CRC32C and SHA-256) and decodes %s%s.", k, k / base, base,
                        m.median("restore.local.detect"),
                        m.median("restore.inline.detect"), m.median("restore.local.afterDetect"),
                        m.median("restore.inline.afterDetect"), m.median("restore.local.afterDetect")
                        / m.median("restore.inline.afterDetect"),
                        ReportWriter.bytes(m.median("jobs.payloadBytesPerJob") * o.jobs),
                        m.has("jmh.sha256Only") ? ", and SHA-256 alone runs at " + ReportWriter.gbs(m.median(
                                "jobs.payloadBytesPerJob") / m.median("jmh.sha256Only") / 1e3) + " GB/s per core here"
                                : ""));
            }
        }
        out.addAll(new RebasedTargets(o, m, stores, p).explain());
        double inlineKill = m.median("restore.inline.killToAll");
        for (String s : stores) {
            if (s.equals("local")) {
                continue;
            }
            double k = m.median("restore." + s + ".killToAll");
            if (k / inlineKill > 1.0) {
                out.add(String.format(Locale.ROOT, "**3. Kill -> restored on %s: %.0f ms, %.2fx the inline"
                        + " baseline's %.0f ms.** After Hazelcast noticed the dead master (%.0f ms) the pointer run"
                        + " took %.0f ms against the inline run's %.0f ms: every blob is one request to a server"
                        + " that runs in this JVM, on the same cores that verify and decode (%s%s).", s, k,
                        k / inlineKill, inlineKill, m.median("restore." + s + ".detect"),
                        m.median("restore." + s + ".afterDetect"), m.median("restore.inline.afterDetect"),
                        s.equals("s3") ? "S3Proxy's Jetty and filesystem blob store" : "the MiniDFSCluster",
                        m.has("restore." + s + "-crc32c.killToAll") ? String.format(Locale.ROOT,
                                "; without the second SHA-256, %.2fx",
                                m.median("restore." + s + "-crc32c.killToAll") / inlineKill) : ""));
            }
        }
        if (m.has("jmh.registryGet")) {
            double reg = m.median("jmh.registryGet");
            double chm = m.median("jmh.concurrentHashMapGet");
            double reg2 = m.median("jmh.registryGetTwoThreads");
            double chm2 = m.median("jmh.concurrentHashMapGetTwoThreads");
            boolean missed1 = chm / reg > 3;
            boolean missed2 = !Double.isNaN(reg2) && chm2 / reg2 > 3;
            if (missed1 || missed2) {
                out.add(String.format(Locale.ROOT, "**4. Get on a hit: %.1f Mops/s on 1 thread (%.2fx slower than"
                        + " ConcurrentHashMap's %.1f), %.1f Mops/s on 2 threads (%.2fx slower than its %.1f).** A hit"
                        + " no longer passes through Caffeine (%.1f Mops/s for a bare Caffeine cache with the"
                        + " registry's settings, below): it is served from a lock-free open-addressing mirror of the"
                        + " cache keyed by the primitive job id, allocates nothing, counts itself in a per-thread cell"
                        + " found by thread id (a ThreadLocal lookup there cost 40%% of a hit)"
                        + " and shows the access to Caffeine at most once a second per entry. What is left beyond"
                        + " ConcurrentHashMap.get is the freshness check (the coarse clock, the entry's last"
                        + " confirmation and last Caffeine access: three volatile reads), finding the counter"
                        + " cell, and the facade's own calls; on a shared 2-core machine the ratio is sensitive to"
                        + " other load (JMH error of the anchor here: %.1f Mops/s).", reg, chm / reg, chm, reg2, chm2 / reg2,
                        chm2, m.median("jmh.caffeineGetIfPresent"), m.median("jmh.concurrentHashMapGet.error")));
            }
            double enc = m.median("jmh.encodeAndChecksums");
            double sums = m.median("jmh.checksumsOnly");
            if (enc / sums > 1.25) {
                out.add(String.format(Locale.ROOT, "**5. Encode + checksums: %.1f us, %.2fx the checksums alone"
                        + " (%.1f us).** The submit path copies the DAG bytes once, into Kryo's buffer, and builds"
                        + " the envelope in place around them; what is left is that copy and Kryo's field writes"
                        + " (encodeOnly, which also copies the result out once more: %.1f us).", enc, enc / sums,
                        sums, m.median("jmh.encodeOnly")));
            }
        }
        if (m.has("cache.maxWeight")) {
            double w = m.median("cache.maxWeight");
            double bound = m.median("cache.bound") + m.median("cache.oneEntry");
            if (w > bound) {
                out.add(String.format(Locale.ROOT, "**6. Cache weight reached %s, above bound + one entry (%s).**",
                        ReportWriter.bytes(w), ReportWriter.bytes(bound)));
            }
        }
        return out;
    }
}
