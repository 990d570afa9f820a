package io.jobinfo.store.benchmarks;

import java.nio.file.Path;

/** Starts the backends by name. */
final class Backends {

    /** The backend cannot run here; the report says why. */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    private Backends() {
    }

    static Backend start(String name, Path work) throws Unavailable {
        return switch (name) {
            case "local" -> Backend.local(work);
            case "hdfs" -> throw new Unavailable("the jobinfo-store-hdfs backend is not on main yet");
            case "s3" -> throw new Unavailable("the jobinfo-store-s3 backend is not on main yet");
            default -> throw new Unavailable("unknown store " + name);
        };
    }
}
