package io.jobinfo.store.seatunnel.harness.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The working directories of the real-cluster tests. */
public final class TestDirectories {

    private TestDirectories() {
    }

    /**
     * Deletes {@code dir} and everything under it, if it exists (a store or working directory of an earlier run).
     *
     * @throws UncheckedIOException naming the path that could not be deleted
     */
    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> old = Files.walk(dir)) {
            for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty " + dir + ": " + e.getMessage(), e);
        }
    }
}
