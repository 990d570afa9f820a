package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.spi.StoreNaming;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The soak's audit of a local store's namespace directory: its running jobs' blobs, by job id, with their age. */
final class EngineSoakAudit {

    private EngineSoakAudit() {
    }

    /** The blob files in {@code dir} by job id (the namespace's claim and any subdirectory left out). */
    static Map<Long, Path> blobPaths(Path dir) {
        Map<Long, Path> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                OptionalLong id = StoreNaming.parseBlobName(p.getFileName().toString());
                if (id.isPresent() && !NamespaceClaim.isClaim(id.getAsLong())) {
                    out.put(id.getAsLong(), p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The blobs of running jobs in {@code dir} with the time each was written. */
    static Map<Long, Instant> blobs(Path dir) {
        Map<Long, Instant> out = new TreeMap<>();
        blobPaths(dir).forEach((id, p) -> {
            try {
                out.put(id, Files.getLastModifiedTime(p).toInstant());
            } catch (NoSuchFileException deletedSinceListed) {
                // deleted between the listing and the look (a sweep): not there
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return out;
    }

    /**
     * The blobs older than {@code grace} whose job has no entry in {@code entries}, each as {@code "<id> (<age> s)"}.
     * Entries are read before the listing, so a job submitted in between has a young blob, never an orphan.
     */
    static List<String> orphansPastGrace(Path dir, Collection<Long> entries, Duration grace) {
        Instant now = Instant.now();
        List<String> out = new ArrayList<>();
        blobs(dir).forEach((id, written) -> {
            Duration age = Duration.between(written, now);
            if (!entries.contains(id) && age.compareTo(grace) > 0) {
                out.add(id + " (" + age.toSeconds() + " s)");
            }
        });
        return out;
    }
}
