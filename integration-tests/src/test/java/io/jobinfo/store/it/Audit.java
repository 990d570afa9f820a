package io.jobinfo.store.it;

import io.jobinfo.store.lifecycle.NamespaceClaim;
import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.ops.GarbageCollector;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the suite checks after a fault, straight from the job map and the store (not through the code under test's
 * caches): acknowledged jobs present and byte-identical, no pointer without its verified blob, and which blobs are
 * orphans.
 */
final class Audit {

    static final KryoJobInfoCodec<JobImmutableInformation> CODEC = JobImmutableInformationSerializer.codec();
    static final long SEED = 2026;
    private static final JobGenerator GENERATOR = new JobGenerator(SEED);
    private static final Map<String, byte[]> EXPECTED = new ConcurrentHashMap<>();

    private Audit() {
    }

    /** The encoded job that a submit of {@code id} with {@code size} bytes carries (see {@link MemberMain}). */
    static byte[] expected(long id, int size) {
        return EXPECTED.computeIfAbsent(id + "/" + size, k -> CODEC.encode(GENERATOR.generate(id, size)));
    }

    static String expectedSha(long id, int size) {
        return MemberMain.sha256(expected(id, size));
    }

    /** Drops the kept bytes of {@code id} (a job that is gone for good: long runs keep memory bounded). */
    static void forget(long id, int size) {
        EXPECTED.remove(id + "/" + size);
    }

    /** Like {@link #expectedSha} without keeping the bytes (for long runs over many ids). */
    static String expectedShaUncached(long id, int size) {
        byte[] kept = EXPECTED.get(id + "/" + size);
        return MemberMain.sha256(kept != null ? kept : CODEC.encode(GENERATOR.generate(id, size)));
    }

    /**
     * Figures of one audit.
     *
     * @param lost             acknowledged ids without pointer, or whose blob is missing or does not verify
     * @param torn             ids whose verified blob holds other bytes than submitted
     * @param pointersNoBlob   pointers whose blob is missing or fails verification
     * @param orphans          complete blobs without pointer
     * @param incomplete       leftovers of interrupted writes
     */
    record Result(Set<Long> lost, Set<Long> torn, Set<Long> pointersNoBlob, Set<Long> orphans, int incomplete) {
    }

    /** Audits every pointer of {@code map} and every blob of {@code store}. */
    static Result run(IMap<Long, Object> map, JobInfoStore store, Set<Long> acknowledged, int size)
            throws JobInfoStoreException {
        Set<Long> keys = new HashSet<>(map.keySet());
        Set<Long> lost = new TreeSet<>();
        Set<Long> torn = new TreeSet<>();
        Set<Long> noBlob = new TreeSet<>();
        for (long id : acknowledged) {
            if (!keys.contains(id)) {
                lost.add(id);
            }
        }
        for (long id : keys) {
            byte[] payload;
            try {
                payload = store.read(id).payload();
            } catch (JobInfoStoreException e) {
                noBlob.add(id);
                if (acknowledged.contains(id)) {
                    lost.add(id);
                }
                continue;
            }
            if (!Arrays.equals(payload, expected(id, size))) {
                torn.add(id);
            }
        }
        Set<Long> orphans = new TreeSet<>();
        int incomplete = 0;
        for (StoredBlob b : store.list()) {
            if (b.incomplete()) {
                incomplete++;
            } else if (!keys.contains(b.jobId()) && !NamespaceClaim.isClaim(b.jobId())) {
                orphans.add(b.jobId());
            }
        }
        return new Result(lost, torn, noBlob, orphans, incomplete);
    }

    /**
     * Runs GC as an operator would: first with the real clock (everything is younger than the 1 h grace period, so
     * nothing may be deleted), then with the clock 2 h ahead (orphans and leftovers are past it and go).
     *
     * @return the two reports
     */
    static GcReport[] collect(IMap<Long, Object> map, JobInfoStore store) throws JobInfoStoreException {
        GcReport now = new GarbageCollector(map, store, Duration.ofHours(1), Clock.systemUTC()).run(true, b -> {
        });
        GcReport later = new GarbageCollector(map, store, Duration.ofHours(1),
                Clock.offset(Clock.systemUTC(), Duration.ofHours(2))).run(true, b -> {
                });
        return new GcReport[] {now, later};
    }
}
