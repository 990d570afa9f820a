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
            double sub = m.median("submit.local.p99");
            double anchor = m.median("anchor.durableWrite.p99");
            if (sub / anchor > 1.5) {
                String steps = "";
                if (m.has("submit.local.tail.blobWrite") && m.has("anchor.durableWriteThenPut.p99")) {
                    double both = m.median("anchor.durableWriteThenPut.p99");
                    steps = String.format(Locale.ROOT, " Over the slowest 1%% of submits the blob write took %.2f ms"
                            + " and the pointer write %.2f ms on average (encode %.2f, GC %.2f): both steps are slow"
                            + " at once. A bare `putIfAbsent` of a pointer-sized value timed right after the bare"
                            + " durable write, job by job beside the submits, has a p99 of %.2f ms (p50 %.2f): the"
                            + " cluster's threads went idle during the fsync, and waking them on this 2-core virtual"
                            + " machine costs that much. The two bare steps in turn have a p99 of %.2f ms, and the"
                            + " submit's is %.2fx that. Invariant 1 (docs/design.md) puts the pointer after the blob"
                            + " is durable, so those two steps in turn are the submit's floor; overlapping the"
                            + " directory fsync with the pointer write would publish a pointer to a blob whose name"
                            + " is not yet durable, and was not done.", m.median("submit.local.tail.blobWrite"),
                            m.median("submit.local.tail.pointerWrite"), m.median("submit.local.tail.encode"),
                            m.median("submit.local.tail.gc"), m.median("anchor.putAfterWrite.p99"),
                            m.median("anchor.putAfterWrite.p50"), both, sub / both);
                }
                out.add(String.format(Locale.ROOT, "**2. Submit p99 on local: %.2f ms, %.2fx the bare durable write's"
                        + " %.2f ms.** A submit is the durable write plus encode and checksums (%.0f us median, item"
                        + " 5) plus the pointer's `putIfAbsent` with one synchronous backup (the inline put of the"
                        + " whole job has p50 %.2f ms and p99 %.2f ms here); the fsync tail of the shared virtual disk"
                        + " moves between rounds (anchor p99 %s ms).%s", sub, sub / anchor, anchor,
                        m.median("jmh.encodeAndChecksums"), m.median("submit.inline.p50"),
                        m.median("submit.inline.p99"), rangeOf(m, "anchor.durableWrite.p99"), steps));
            }
            double k = m.median("restore.local.killToAll");
            double base = m.median("restore.inline.killToAll");
            if (k / base > 0.6) {
                out.add(String.format(Locale.ROOT, "**3. Kill -> restored on local: %.0f ms, %.2fx the inline"
                        + " baseline's %.0f ms.** Both clocks include Hazelcast noticing the dead master (%.0f ms for"
                        + " the pointer run, %.0f ms for the inline one; the same mechanism, not this library's). After"
                        + " that, the pointer run took %.0f ms against the inline run's %.0f ms (%.2fx): it reads,"
                        + " verifies (CRC32C and SHA-256) and decodes %s, and SHA-256 alone runs at %s GB/s per core"
                        + " here.", k, k / base, base, m.median("restore.local.detect"),
                        m.median("restore.inline.detect"), m.median("restore.local.afterDetect"),
                        m.median("restore.inline.afterDetect"), m.median("restore.local.afterDetect")
                        / m.median("restore.inline.afterDetect"),
                        ReportWriter.bytes(m.median("jobs.payloadBytesPerJob") * o.jobs),
                        ReportWriter.gbs(m.median("jobs.payloadBytesPerJob") / m.median("jmh.sha256Only") / 1e3)));
            }
            double bw = m.median("restore.local.p" + p + ".bw");
            double raw = m.median("raw.local.p" + p + ".bw");
            if (bw / raw < 0.5) {
                double sha = m.median("jobs.payloadBytesPerJob") / m.median("jmh.sha256Only") / 1e3;
                double crc = m.median("jobs.payloadBytesPerJob") / m.median("jmh.crc32cOnly") / 1e3;
                int cores = Runtime.getRuntime().availableProcessors();
                double rawOne = m.median("raw.local.p1.bw") / 1e3;
                double ceiling = cores / (1 / sha + 1 / crc + 1 / rawOne) * 1e3;
                out.add(String.format(Locale.ROOT, "**3. Blob phase on local: %.0f MB/s, %.0f%% of the raw read of"
                        + " the same bytes (%.0f MB/s) with %d loaders.** Every blob is verified before it is"
                        + " cached or returned (design invariant 3): SHA-256 runs at %.2f GB/s and CRC32C at %.1f"
                        + " GB/s per core in this run, against raw page-cache reads of %.2f GB/s on one thread."
                        + " Reading, CRC32C and SHA-256 of every byte on %d cores cap the blob phase near %.0f MB/s"
                        + " before any decoding: %.0f%% of the raw figure. Decoding copies the DAG once more. The"
                        + " checksum is what bounds it; dropping SHA-256 on reads would break the invariant.",
                        bw, bw / raw * 100, raw, p, sha, crc, rawOne, cores, ceiling, ceiling / raw * 100));
            }
        }
        if (stores.contains("local") && stores.contains("hdfs")) {
            double hdfs = m.median("submit.hdfs.p99");
            double local = m.median("submit.local.p99");
            if (hdfs / local > 3) {
                out.add(String.format(Locale.ROOT, "**2. Submit p99 on hdfs: %.1f ms, %.2fx the local submit p99"
                        + " (%.2f ms).** A blob on HDFS is four NameNode calls (create, addBlock,"
                        + " complete, rename), each an edit-log sync, plus the DataNode pipeline and its sync of the"
                        + " block on close (no hsync, so no fifth call: a probe of the raw steps found the same p50"
                        + " either way, 18 ms, the pipeline set-up and the close dominating); here"
                        + " the NameNode and the DataNode run in this JVM on the same cores as the three members."
                        + " The client's close retries from 2 ms (docs/configuration.md) and no exists() precedes"
                        + " the create; what is left is those round trips (p50 %.1f ms).", hdfs, hdfs / local,
                        local, m.median("submit.hdfs.p50")));
            }
        }
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
        String delayed = "s3-delay" + o.s3DelayMillis;
        if (m.has("restore." + delayed + ".killToAll") && m.has("restore.s3.killToAll")) {
            double d = m.median("restore." + delayed + ".killToAll");
            double plain = m.median("restore.s3.killToAll");
            if (d / plain > 1.5) {
                out.add(String.format(Locale.ROOT, "**3. Kill -> restored with %d ms per S3 request: %.0f ms, %.2fx"
                        + " the same run without the delay (%.0f ms).** %.0f loaders keep that many GETs in"
                        + " flight; 1000 requests of %d ms each cost %.0f ms of waiting at that depth.",
                        o.s3DelayMillis, d, d / plain, plain, m.median("restore." + delayed + ".loaders"),
                        o.s3DelayMillis, o.jobs * (double) o.s3DelayMillis
                                / m.median("restore." + delayed + ".loaders")));
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

    private static String rangeOf(Metrics m, String key) {
        return String.format(Locale.ROOT, "%.2f..%.2f", m.min(key), m.max(key));
    }
}
