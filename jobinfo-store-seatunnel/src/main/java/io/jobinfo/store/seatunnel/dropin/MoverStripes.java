package io.jobinfo.store.seatunnel.dropin;

/**
 * Which of the drop-in's mover threads works for a job id: always the same one for an id, so a delete and a later move
 * of the same id (a job submitted again under its id) run in order.
 */
public final class MoverStripes {

    private MoverStripes() {
    }

    /**
     * The stripe of {@code jobId} among {@code stripes} (from 0 to {@code stripes - 1}). SeaTunnel's ids are
     * snowflake-like (a timestamp, a node and a sequence in fixed bit fields), so ids drawn close together share most
     * low bits: the id's bits are mixed first (the murmur3 finalizer), or a power-of-two stripe count would use only a
     * few stripes. Public for tests that place jobs on stripes of their own (the crash trials).
     *
     * @throws IllegalArgumentException {@code stripes} is not positive
     */
    public static int of(long jobId, int stripes) {
        if (stripes <= 0) {
            throw new IllegalArgumentException("stripes must be positive, got " + stripes);
        }
        long h = jobId;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) stripes);
    }
}
