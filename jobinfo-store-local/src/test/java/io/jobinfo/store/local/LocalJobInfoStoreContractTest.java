package io.jobinfo.store.local;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.testing.AbstractJobInfoStoreContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalJobInfoStoreContractTest extends AbstractJobInfoStoreContractTest {

    @TempDir
    static Path root;

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return JobInfoStorageConfig.builder("local").namespace(root + "/" + namespaceName).build();
    }

    @Override
    protected void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) throws Exception {
        Files.write(((LocalJobInfoStore) store).path(jobId), bytes);
    }

    @Test
    void aSecondCloseIsANoOpAndTheClosedStoreRefusesWork() throws Exception {
        store.close();
        assertThatCode(store::close).doesNotThrowAnyException();
        assertThatThrownBy(() -> store.openRaw(1)).isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("The store is closed");
    }
}
