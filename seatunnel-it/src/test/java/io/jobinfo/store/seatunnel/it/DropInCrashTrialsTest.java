package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@link CrashTrials} with the local store (a directory every member shares, as NFS would be). Long mode only.
 */
@EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true", disabledReason = CrashTrials.DISABLED)
class DropInCrashTrialsTest extends CrashTrials {

    static final Path STORE = dir(DropInCrashTrialsTest.class.getSimpleName()).resolve("store");

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(() -> {
        var spec = spec(DropInCrashTrialsTest.class.getSimpleName(), DropInChecks.storageYaml(STORE));
        try {
            Files.createDirectories(STORE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return spec;
    }, Duration.ofSeconds(180));

    @Override
    SeaTunnelClusterExtension st() {
        return ST;
    }

    @Override
    String backend() {
        return "local";
    }

    @Override
    List<String> storeFiles() {
        try (Stream<Path> files = Files.walk(STORE)) {
            return files.filter(Files::isRegularFile).map(p -> STORE.relativize(p).toString())
                    .filter(name -> !name.equals(NamespaceClaim.BLOB_NAME)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
