package io.jobinfo.store.it;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The backends every parameterized test of the suite runs on, each started once per test JVM. */
final class Backends {

    private static List<Backend> all;
    private static Backend local;

    private Backends() {
    }

    static synchronized List<Backend> all() {
        if (all == null) {
            List<Backend> list = new ArrayList<>();
            list.add(local());
            list.add(new HdfsBackend());
            list.add(new S3Backend());
            all = List.copyOf(list);
        }
        return all;
    }

    /**
     * The local backend alone, without loading the others (Hadoop and the S3 server): for tests that need one
     * backend, also where those are not on the classpath (compat-hazelcast51 runs such tests on Hazelcast 5.1).
     */
    static synchronized Backend local() {
        if (local == null) {
            local = new LocalBackend();
        }
        return local;
    }

    /** For {@code @MethodSource}. */
    static Stream<Backend> backends() {
        return all().stream();
    }

    /** Backends with a server a TCP fault proxy can stand in front of. */
    static Stream<Backend> proxiable() {
        return all().stream().filter(b -> b.faultableServer() != null);
    }

    /** Whether the long mode (more trials; opt-in with {@code -Djobinfo.it.long=true}) is on. */
    static boolean longMode() {
        return Boolean.getBoolean("jobinfo.it.long");
    }
}
