package io.jobinfo.store.seatunnel;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Real SeaTunnel jobs on the local/NFS store. */
class LocalRealJobStoreTest extends AbstractRealJobStoreTest {

    @TempDir
    static Path root;

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return JobInfoStorageConfig.builder("local").namespace(root + "/" + namespaceName).build();
    }
}
