package io.jobinfo.store.seatunnel;

import io.jobinfo.store.seatunnel.testing.RealSeaTunnelJob;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobs;
import java.util.stream.Stream;

/** The real jobs every test of this module uses, built once per JVM. */
final class RealJobs {

    private RealJobs() {
    }

    /** 1 table x 2 columns without uploaded jars (the stock client), 100 x 10 and 1000 x 20 with. */
    static Stream<RealSeaTunnelJob> all() {
        return Stream.of(one(), hundred(), thousand());
    }

    static RealSeaTunnelJob one() {
        return SeaTunnelJobs.fakeToConsole(880_000_000_000_001L, 1, 2, false);
    }

    static RealSeaTunnelJob hundred() {
        return SeaTunnelJobs.fakeToConsole(880_000_000_000_100L, 100, 10, true);
    }

    static RealSeaTunnelJob thousand() {
        return SeaTunnelJobs.fakeToConsole(880_000_000_001_000L, 1000, 20, true);
    }
}
