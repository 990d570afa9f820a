package io.jobinfo.store.benchmarks;

import io.jobinfo.store.service.SubmitPhaseListener;
import io.jobinfo.store.service.RunningJobInfoRegistry;

import java.util.List;

/**
 * The report sections of performance round 2 (issue 15, items 2, 3 and 5): the submit and restore targets of that
 * round against this run's anchors, every restore variant (read verification levels, the S3 store with latency
 * added to each request), and the memory and restore figures at real SeaTunnel job sizes. Kept out of
 * {@link ReportWriter} so that sections of other items can be added there independently.
 */
final class RoundTwoSections {

    private final BenchOptions o;
    private final Metrics m;
    private final List<String> stores;
    private final List<String> variants;
    private final StringBuilder md;

    RoundTwoSections(BenchOptions o, Metrics m, List<String> stores, List<String> variants, StringBuilder md) {
        this.o = o;
        this.m = m;
        this.stores = stores;
        this.variants = variants == null ? List.of() : variants;
        this.md = md;
    }

    void append() {
        targets();
        submitBreakdown();
        variantsTable();
        sizes();
    }

    private int headline() {
        return o.parallelismLevels.contains(o.restoreParallelism) ? o.restoreParallelism
                : o.parallelismLevels.get(o.parallelismLevels.size() - 1);
    }

    private void targets() {
        md.append("## Round 2 targets (issue 15: items 2 and 3), superseded by the round 3 targets of the summary\n\n");
        md.append("| figure | measured | anchor / baseline (same run) | ratio | target | |\n");
        md.append("|---|---|---|---|---|---|\n");
        double anchor = m.median("anchor.local.durableWrite.p99");
        double local = m.median("submit.local.p99");
        if (m.has("submit.local.p99")) {
            row("submit p99, local", ReportWriter.ms(local), ReportWriter.ms(anchor)
                    + " bare write+fsync+link+dir fsync", ReportWriter.x(local / anchor), "<= 1.5x", local / anchor <= 1.5);
        }
        if (m.has("submit.hdfs.p99") && m.has("submit.local.p99")) {
            double h = m.median("submit.hdfs.p99");
            row("submit p99, hdfs", ReportWriter.ms(h), ReportWriter.ms(local) + " local submit p99",
                    ReportWriter.x(h / local), "<= 3x", h / local <= 3);
        }
        double inline = m.median("restore.inline.killToAll");
        for (String v : variants) {
            if (!m.has("restore." + v + ".killToAll") || v.startsWith("s3-delay")) {
                continue;
            }
            double k = m.median("restore." + v + ".killToAll");
            double target = v.startsWith("local") ? 0.6 : 1.0;
            row("kill -> all restored + verified, " + v + " (" + loaders(v) + " loaders)", ReportWriter.ms(k),
                    ReportWriter.ms(inline) + " inline kill -> entrySet()", ReportWriter.x(k / inline),
                    "<= " + target + "x", k / inline <= target);
        }
        int p = headline();
        for (String v : variants) {
            if (!v.startsWith("local") || !m.has("restore." + v + ".p" + p + ".bw")) {
                continue;
            }
            double bw = m.median("restore." + v + ".p" + p + ".bw");
            double raw = m.median("raw." + v + ".p" + p + ".bw");
            row("blob phase bandwidth, " + v + " (" + p + " loaders)", ReportWriter.mbs(bw), ReportWriter.mbs(raw)
                    + " raw read, same bytes, same threads", ReportWriter.pct(bw / raw), ">= 50%", bw / raw >= 0.5);
        }
        for (String v : variants) {
            if (!v.startsWith("s3-delay") || !m.has("restore." + v + ".killToAll") || !m.has("restore.s3.killToAll")) {
                continue;
            }
            double d = m.median("restore." + v + ".killToAll");
            double s = m.median("restore.s3.killToAll");
            row("kill -> all restored, " + v + " (" + loaders(v) + " loaders)", ReportWriter.ms(d),
                    ReportWriter.ms(s) + " s3 without the delay (" + loaders("s3") + " loaders)",
                    ReportWriter.x(d / s), "<= 1.5x", d / s <= 1.5);
        }
        md.append('\n');
    }

    /**
     * Where the time of a submit goes: the registry's submit observer splits every submit into its steps, and the
     * local round runs a composite anchor (the bare durable write, then a bare {@code putIfAbsent} of a
     * pointer-sized value on the same cluster) job by job beside the submits.
     */
    private void submitBreakdown() {
        List<String> measured = variants.stream().filter(v -> m.has("submit." + v + ".tail.blobWrite")).toList();
        if (measured.isEmpty()) {
            return;
        }
        md.append("## Where a submit's time goes (item 2)\n\n");
        md.append("Every submit split into its steps by the registry's `SubmitPhaseListener`: *encode* (Kryo encode,"
                + " CRC32C, SHA-256, header), *blob write* (the store's create: on local temp write, fsync, link,"
                + " directory fsync), *pointer write* (`putIfAbsent` of the pointer, one synchronous backup), *rest*"
                + " (cache put, meters), and the stop-the-world GC time that fell inside the submit. Columns 4-8:"
                + " mean ms of each step over the slowest 1% of the submits (the ones the p99 is made of); in"
                + " brackets each step's own p99 over all submits. Medians across rounds.\n\n");
        md.append("| variant | submit p50 ms | submit p99 ms | encode | blob write | pointer write | rest | GC |\n");
        md.append("|---|---|---|---|---|---|---|---|\n");
        for (String v : measured) {
            md.append("| ").append(v).append(" | ").append(ReportWriter.f2(m.median("submit." + v + ".p50")))
                    .append(" | ").append(ReportWriter.f2(m.median("submit." + v + ".p99")));
            for (String part : SubmitPhases.PARTS) {
                md.append(" | ").append(ReportWriter.f2(m.median("submit." + v + ".tail." + part))).append(" (")
                        .append(ReportWriter.f2(m.median("submit." + v + ".p99." + part))).append(")");
            }
            md.append(" |\n");
        }
        md.append('\n');
        if (!m.has("anchor.local.durableWriteThenPut.p99") || !m.has("submit.local.p99")) {
            return;
        }
        double write = m.median("anchor.local.durableWrite.p99");
        double put = m.median("anchor.local.putAfterWrite.p99");
        double both = m.median("anchor.local.durableWriteThenPut.p99");
        double local = m.median("submit.local.p99");
        md.append("Anchors of the local round, interleaved job by job with its submits (same bytes, same cluster):"
                + "\n\n| anchor | p50 ms | p99 ms |\n|---|---|---|\n");
        md.append("| bare write + fsync + link + dir fsync | ").append(ReportWriter.f2(m.median(
                "anchor.local.durableWrite.p50"))).append(" | ").append(ReportWriter.f2(write)).append(" |\n");
        md.append("| bare `IMap.putIfAbsent` of a ").append(ScenarioBenchmark.POINTER_BYTES)
                .append("-byte value right after it | ").append(ReportWriter.f2(m.median(
                        "anchor.local.putAfterWrite.p50"))).append(" | ").append(ReportWriter.f2(put)).append(" |\n");
        md.append("| the two in turn (durable blob, then its pointer) | ").append(ReportWriter.f2(m.median(
                "anchor.local.durableWriteThenPut.p50"))).append(" | ").append(ReportWriter.f2(both)).append(" |\n\n");
        md.append(String.format("The local submit's p99 (%s) is %s the two bare steps in turn (%s) and %s the"
                + " durable write alone (%s); the bare put after the write has a p99 of %s, %s the write's.%n%n",
                ReportWriter.ms(local), ReportWriter.x(local / both), ReportWriter.ms(both),
                ReportWriter.x(local / write), ReportWriter.ms(write), ReportWriter.ms(put),
                ReportWriter.pct(put / write)));
    }

    private void row(String figure, String measured, String anchor, String ratio, String target, boolean met) {
        md.append("| ").append(figure).append(" | ").append(measured).append(" | ").append(anchor).append(" | ")
                .append(ratio).append(" | ").append(target).append(" | ").append(met ? "**met**" : "**missed**")
                .append(" |\n");
    }

    private String loaders(String variant) {
        double l = m.median("restore." + variant + ".loaders");
        return Double.isNaN(l) ? String.valueOf(o.restoreParallelism) : String.valueOf((int) l);
    }

    private void variantsTable() {
        md.append("## Restore variants: read verification and a distant S3\n\n");
        md.append("*full*: header, job id, length, CRC32C and SHA-256 of every byte (the default). *crc32c*: the same"
                + " without the second SHA-256 (`RunningJobInfoRegistry.Builder.readVerification`; see"
                + " docs/design.md, \"Read verification\", for what it does not detect). *s3-delay*: an S3 server"
                + " of its own that answers every operation " + o.s3DelayMillis + " ms late (S3Proxy's latency"
                + " middleware, inside the server: the client's connections stay open between requests, as with a"
                + " distant object store; the suite's TCP fault proxy closes every connection, so it would measure"
                + " connection set-up too). *Prefetch*: while the new master waits for the map's listing"
                + " (Hazelcast's partition repair after the kill), the restore reads the store's blobs"
                + " (`RunningJobInfoRegistry.Builder.restorePrefetch`; see docs/design.md). Loaders: the store's"
                + " suggestion unless `--restore-parallelism` is given (8 local and hdfs, 32 s3).\n\n");
        md.append("| variant | loaders | submit p99 ms | kill -> all restored, ms | min..max | vs inline | after"
                + " detection vs inline | blob phase MB/s (" + headline() + " loaders) | raw read MB/s | blob"
                + " phase / raw |\n|---|---|---|---|---|---|---|---|---|---|\n");
        double inline = m.median("restore.inline.killToAll");
        double inlineAfter = m.median("restore.inline.afterDetect");
        int p = headline();
        for (String v : variants) {
            String k = "restore." + v + ".killToAll";
            if (!m.has(k)) {
                continue;
            }
            double bw = m.median("restore." + v + ".p" + p + ".bw");
            double raw = m.median("raw." + v + ".p" + p + ".bw");
            md.append("| ").append(v).append(" | ").append(loaders(v)).append(" | ")
                    .append(ReportWriter.f2(m.median("submit." + v + ".p99"))).append(" | ")
                    .append(ReportWriter.f0(m.median(k))).append(" | ")
                    .append(String.format("%.0f..%.0f", m.min(k), m.max(k))).append(" | ")
                    .append(ReportWriter.x(m.median(k) / inline)).append(" | ")
                    .append(ReportWriter.x(m.median("restore." + v + ".afterDetect") / inlineAfter)).append(" | ")
                    .append(ReportWriter.f0(bw)).append(" | ").append(ReportWriter.f0(raw)).append(" | ")
                    .append(ReportWriter.pct(bw / raw)).append(" |\n");
        }
        md.append('\n');
    }

    private void sizes() {
        if (o.sizes.isEmpty()) {
            return;
        }
        md.append("## Memory and restore at real SeaTunnel job sizes (item 5)\n\n");
        md.append("The scenario again per size, each variant on a fresh cluster, with min(--jobs, 256 MiB / size)"
                + " jobs and " + loaders("local") + " local loaders (the stores' suggestions otherwise); full"
                + " verification. Bytes per job: owned + backup entry cost over the members; restore: kill ->"
                + " every job restored and verified.\n\n");
        md.append("| job size | jobs | variant | cluster bytes per job | vs inline | kill -> all restored, ms | vs"
                + " inline | ms per job |\n|---|---|---|---|---|---|---|---|\n");
        for (int size : o.sizes) {
            String pre = SizesBenchmark.prefix(size);
            if (!m.has(pre + "jobs")) {
                continue;
            }
            int jobs = (int) m.median(pre + "jobs");
            double memInline = m.median(pre + "memory.inline");
            double resInline = m.median(pre + "restore.inline.killToAll");
            md.append("| ").append(ReportWriter.bytes(size)).append(" | ").append(jobs).append(" | inline | ")
                    .append(ReportWriter.bytes(memInline)).append(" | 1 | ").append(ReportWriter.f0(resInline))
                    .append(" | 1 | ").append(ReportWriter.f2(resInline / jobs)).append(" |\n");
            for (String s : stores) {
                if (!m.has(pre + "memory." + s)) {
                    continue;
                }
                double mem = m.median(pre + "memory." + s);
                double res = m.median(pre + "restore." + s + ".killToAll");
                md.append("| ").append(ReportWriter.bytes(size)).append(" | ").append(jobs).append(" | pointer + ")
                        .append(s).append(" | ").append(ReportWriter.bytes(mem)).append(" | 1/")
                        .append(String.format("%,.0f", memInline / mem)).append(" | ").append(ReportWriter.f0(res))
                        .append(" | ").append(ReportWriter.x(res / resInline)).append(" | ")
                        .append(ReportWriter.f2(res / jobs)).append(" |\n");
            }
        }
        md.append('\n');
    }
}
