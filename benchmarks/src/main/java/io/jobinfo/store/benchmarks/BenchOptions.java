package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.ByteSize;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The knobs of one report run. {@code --quick} shrinks everything for a smoke test. */
final class BenchOptions {

    int jobs = 1000;
    int blobBytes = 200 * 1024;
    int rounds = 3;
    int members = 3;
    int restoreParallelism = 8;
    /** Whether --restore-parallelism was given; if not, each store's suggestion is used (8; S3 32). */
    boolean restoreParallelismGiven;
    /** Latency added to every S3 request of the s3-delay variant (0: no such variant). */
    int s3DelayMillis = 25;
    /** Read verification levels of the pointer variants: full (the default) and crc32c. */
    List<String> verifications = new ArrayList<>(List.of("full", "crc32c"));
    /** Job sizes of the sizes scenario (memory and restore at real SeaTunnel sizes); empty: skipped. */
    List<Integer> sizes = new ArrayList<>(List.of(10 * 1024, 200 * 1024, 1800 * 1024));
    /** Payload bytes per variant of the sizes scenario at most (jobs = min(--jobs, this / size)). */
    long sizesMaxBytes = 256L << 20;
    /** Rounds of the sizes scenario (0: as many as --rounds). */
    int sizesRounds;
    /** Rounds of the scale scenario; 0: {@link #rounds}. */
    int scaleRounds;
    /** Whether the scenario runs the extra variants (crc32c, s3-delay); off inside the sizes scenario. */
    boolean variants = true;
    List<Integer> parallelismLevels = List.of(1, 2, 4, 8, 16);
    List<String> stores = new ArrayList<>(List.of("local", "hdfs", "s3"));
    int cacheJobs = 10_000;
    int cacheReaders = 16;
    long cacheMaxBytes = 64L << 20;
    double cacheSeconds = 15;
    /** Job counts of the scale scenario (item 7); empty: not run ({@code --no-scale}). */
    List<Integer> scaleJobs = List.of(1000, 3000, 10_000);
    /** Stores the scale scenario runs the pointer variant on (those of {@code --stores} only). */
    List<String> scaleStores = List.of("local", "s3");
    boolean jmh = true;
    /** the real SeaTunnel scenario (SeaTunnelEngineBenchmark); --quick skips it */
    boolean engine = true;
    int engineJobs = 3;
    boolean quick;
    int jmhForks = 2;
    int jmhWarmups = 3;
    int jmhIterations = 5;
    double jmhSeconds = 1.0;
    Path out = Path.of("docs/benchmarks");
    /** Whether --out was given (the {@code migrate} command writes under target/ otherwise). */
    boolean outGiven;
    /** Whether the report runs the migrate / rollback throughput scenario (issue 26 item 5). */
    boolean migrate = true;
    /** Parallelism of the migrate scenario's runs; 0: the Migrator's default, as {@code migrate} runs. */
    int migrateParallelism;
    Path workDir;
    String command = "report";

    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
        List<String> a = new ArrayList<>(Arrays.asList(args));
        if (!a.isEmpty() && !a.get(0).startsWith("--")) {
            o.command = a.remove(0);
        }
        if (a.contains("--quick")) {
            o.quick();
        }
        for (int i = 0; i < a.size(); i++) {
            String k = a.get(i);
            if (k.equals("--quick")) {
                continue;
            }
            if (k.equals("--no-jmh")) {
                o.jmh = false;
                continue;
            }
            if (k.equals("--no-scale")) {
                o.scaleJobs = List.of();
                continue;
            }
            if (k.equals("--no-migrate")) {
                o.migrate = false;
                continue;
            }
            if (k.equals("--no-engine")) {
                o.engine = false;
                continue;
            }
            if (k.equals("--help") || k.equals("-h")) {
                o.command = "help";
                continue;
            }
            if (i + 1 >= a.size()) {
                throw new IllegalArgumentException(k + " needs a value\n" + usage());
            }
            String v = a.get(++i);
            switch (k) {
                case "--jobs" -> o.jobs = Integer.parseInt(v);
                case "--blob-size" -> o.blobBytes = (int) ByteSize.parse(v);
                case "--rounds" -> o.rounds = Integer.parseInt(v);
                case "--members" -> o.members = Integer.parseInt(v);
                case "--restore-parallelism" -> {
                    o.restoreParallelism = Integer.parseInt(v);
                    o.restoreParallelismGiven = true;
                }
                case "--s3-delay-ms" -> o.s3DelayMillis = Integer.parseInt(v);
                case "--sizes-rounds" -> o.sizesRounds = Integer.parseInt(v);
                case "--scale-rounds" -> o.scaleRounds = Integer.parseInt(v);
                case "--verifications" -> o.verifications = new ArrayList<>(Arrays.stream(v.split(","))
                        .map(String::trim).filter(x -> !x.isEmpty()).toList());
                case "--sizes" -> o.sizes = v.trim().equals("none") ? new ArrayList<>()
                        : new ArrayList<>(Arrays.stream(v.split(",")).map(String::trim).filter(x -> !x.isEmpty())
                        .map(x -> (int) ByteSize.parse(x)).toList());
                case "--parallelism" -> o.parallelismLevels = Arrays.stream(v.split(",")).map(String::trim)
                        .map(Integer::parseInt).toList();
                case "--stores" -> o.stores = new ArrayList<>(Arrays.stream(v.split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).toList());
                case "--scale-jobs" -> o.scaleJobs = Arrays.stream(v.split(",")).map(String::trim)
                        .map(Integer::parseInt).toList();
                case "--scale-stores" -> o.scaleStores = Arrays.stream(v.split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).toList();
                case "--cache-jobs" -> o.cacheJobs = Integer.parseInt(v);
                case "--cache-readers" -> o.cacheReaders = Integer.parseInt(v);
                case "--cache-max-bytes" -> o.cacheMaxBytes = ByteSize.parse(v);
                case "--cache-seconds" -> o.cacheSeconds = Double.parseDouble(v);
                case "--engine-jobs" -> o.engineJobs = Integer.parseInt(v);
                case "--jmh-forks" -> o.jmhForks = Integer.parseInt(v);
                case "--jmh-iterations" -> o.jmhIterations = Integer.parseInt(v);
                case "--jmh-warmups" -> o.jmhWarmups = Integer.parseInt(v);
                case "--jmh-seconds" -> o.jmhSeconds = Double.parseDouble(v);
                case "--migrate-parallelism" -> o.migrateParallelism = Integer.parseInt(v);
                case "--out" -> {
                    o.out = Path.of(v);
                    o.outGiven = true;
                }
                case "--work-dir" -> o.workDir = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + k + "\n" + usage());
            }
        }
        o.validate();
        return o;
    }

    /** Rounds of the scale scenario. */
    int scaleRounds() {
        return scaleRounds > 0 ? scaleRounds : rounds;
    }

    private void quick() {
        quick = true;
        migrate = false; // its own cluster per round: the smoke test stays as fast as before (MigrateReportTest)
        jobs = 20;
        rounds = 1;
        parallelismLevels = List.of(1, 4, 16);
        scaleJobs = List.of(10, 40);
        scaleStores = List.of("local");
        cacheJobs = 200;
        cacheMaxBytes = 4L << 20;
        cacheSeconds = 2;
        jmhForks = 0;
        jmhWarmups = 1;
        jmhIterations = 2;
        jmhSeconds = 0.2;
        sizesMaxBytes = 8L << 20;
    }

    /** A copy for a sub-scenario (the sizes scenario): same settings, its own job count and size, no variants. */
    BenchOptions forSize(int bytes) {
        BenchOptions c = new BenchOptions();
        c.jobs = (int) Math.max(10, Math.min(jobs, sizesMaxBytes / bytes));
        c.blobBytes = bytes;
        c.rounds = sizesRounds > 0 ? sizesRounds : rounds;
        c.members = members;
        c.restoreParallelism = restoreParallelism;
        c.restoreParallelismGiven = restoreParallelismGiven;
        c.parallelismLevels = List.of(restoreParallelism);
        c.stores = new ArrayList<>(stores);
        c.verifications = new ArrayList<>(List.of("full"));
        c.sizes = new ArrayList<>();
        c.variants = false;
        c.quick = quick;
        return c;
    }

    private void validate() {
        List<String> problems = new ArrayList<>();
        if (jobs < 1 || jobs > 100_000) {
            problems.add("--jobs must be 1..100000");
        }
        if (blobBytes < 1024 || blobBytes > (64 << 20)) {
            problems.add("--blob-size must be 1KiB..64MiB");
        }
        if (rounds < 1 || rounds > 50) {
            problems.add("--rounds must be 1..50");
        }
        if (members < 2 || members > 7) {
            problems.add("--members must be 2..7");
        }
        if (parallelismLevels.isEmpty() || parallelismLevels.stream().anyMatch(p -> p < 1 || p > 256)) {
            problems.add("--parallelism must list values in 1..256");
        }
        if (restoreParallelism < 1 || restoreParallelism > 256) {
            problems.add("--restore-parallelism must be 1..256");
        }
        for (String s : verifications) {
            if (!List.of("full", "crc32c").contains(s)) {
                problems.add("--verifications: unknown level '" + s + "' (full, crc32c)");
            }
        }
        if (!verifications.contains("full")) {
            problems.add("--verifications must include full (the default level, which the headline figures use)");
        }
        if (sizesRounds < 0 || sizesRounds > 50) {
            problems.add("--sizes-rounds must be 0..50");
        }
        if (scaleRounds < 0 || scaleRounds > 50) {
            problems.add("--scale-rounds must be 0..50");
        }
        if (s3DelayMillis < 0 || s3DelayMillis > 10_000) {
            problems.add("--s3-delay-ms must be 0..10000");
        }
        for (int size : sizes) {
            if (size < 1024 || size > (64 << 20)) {
                problems.add("--sizes must list sizes in 1KiB..64MiB");
            }
        }
        for (String s : stores) {
            if (!List.of("local", "hdfs", "s3").contains(s)) {
                problems.add("--stores: unknown store '" + s + "' (local, hdfs, s3)");
            }
        }
        if (scaleJobs.stream().anyMatch(n -> n < 1 || n > 100_000)) {
            problems.add("--scale-jobs must list values in 1..100000");
        }
        for (int i = 1; i < scaleJobs.size(); i++) {
            if (scaleJobs.get(i) <= scaleJobs.get(i - 1)) {
                problems.add("--scale-jobs must be increasing");
                break;
            }
        }
        for (String s : scaleStores) {
            if (!List.of("local", "hdfs", "s3").contains(s)) {
                problems.add("--scale-stores: unknown store '" + s + "' (local, hdfs, s3)");
            }
        }
        if (engineJobs < 1 || engineJobs > 200) {
            problems.add("--engine-jobs must be 1..200");
        }
        if (cacheJobs < 1 || cacheReaders < 1 || cacheMaxBytes < blobBytes) {
            problems.add("--cache-jobs and --cache-readers must be positive, --cache-max-bytes at least one blob");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems) + "\n" + usage());
        }
    }

    static String usage() {
        return """
                usage: java -jar benchmarks/target/benchmarks.jar report [options]
                       java -jar benchmarks/target/benchmarks.jar migrate [options]   (only the migrate section)
                  --jobs N                 jobs per scenario (default 1000)
                  --blob-size SIZE         encoded size of each job (default 200KiB)
                  --rounds N               repetitions; the report quotes medians (default 3)
                  --stores LIST            local,hdfs,s3 (default all that are on the class path)
                  --restore-parallelism N  loaders in the kill -> restored figure (default: the store's
                                           suggestion, 8 for local and hdfs, 32 for s3)
                  --verifications LIST     read verification levels of the pointer variants (default full,crc32c)
                  --s3-delay-ms MS         latency added to every S3 request of the s3-delay variant (default 25;
                                           0: no such variant)
                  --sizes LIST|none        job sizes of the sizes scenario (default 10KiB,200KiB,1800KiB)
                  --sizes-rounds N         rounds of the sizes scenario (default: --rounds)
                  --parallelism LIST       warm-up parallelism sweep (default 1,2,4,8,16)
                  --scale-jobs LIST        job counts of the scale scenario (default 1000,3000,10000)
                  --scale-rounds N         rounds of the scale scenario (default: --rounds); medians per count
                  --scale-stores LIST      stores it runs the pointer variant on (default local,s3; hdfs adds
                                           its submit latency times 14,000 jobs); inline where the heap allows
                  --no-scale               skip the scale scenario
                  --cache-jobs N           jobs in the cache-bound scenario (default 10000)
                  --cache-readers N        reader threads there (default 16)
                  --cache-max-bytes SIZE   cache bound there (default 64MiB)
                  --cache-seconds S        how long the readers run (default 15)
                  --jmh-forks/--jmh-warmups/--jmh-iterations/--jmh-seconds   JMH settings (2/3/5/1.0)
                  --no-jmh                 skip the JMH benchmarks
                  --engine-jobs N          jobs per cluster in the real SeaTunnel scenario (default 3: one per size)
                  --no-engine              skip the real SeaTunnel scenario (stock vs drop-in, about 2 min a round)
                  --no-migrate             skip the migrate / rollback throughput scenario
                  --migrate-parallelism N  its parallelism (default: the migrate command's default)
                  --out DIR                where the report goes (default docs/benchmarks; the migrate command:
                                           benchmarks/target/migrate-report)
                  --work-dir DIR           where stores and files go (default: a temporary directory)
                  --quick                  20 jobs, 1 round, tiny JMH runs, scale at 10/40 jobs on local, no real
                                           SeaTunnel scenario: a smoke test of the whole pipeline
                """;
    }
}
