package io.jobinfo.store.cli.ops;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.seatunnel.dropin.DropInRefusedException;
import io.jobinfo.store.seatunnel.dropin.DropInSettings;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code check-config}: reads a {@code seatunnel.yaml} (or any file with a {@code jobinfo-storage} section) the way a
 * member with the drop-in does, before a restart, without a cluster. Its messages never quote the file (a line may hold
 * a credential), unlike SeaTunnel's own parser, which reads the file first on a member.
 */
@Command(name = "check-config", header = "Checks a configuration file as a member with the drop-in would read it.",
        exitCodeList = {"0:the file is valid (and with --open-store the store opened)",
            "2:invalid arguments or configuration: the file is invalid, every problem listed",
            "3:--open-store: the store could not be opened or reached",
            ExitCodes.HELP_INTERNAL})
public final class CheckConfigCommand extends ReportCommand {

    @Option(names = "--storage-config", paramLabel = "FILE", required = true)
    Path storageConfig;

    @Option(names = "--open-store")
    boolean openStore;

    @Override
    int execute() {
        String prefix = "--storage-config " + storageConfig + ": ";
        Map<?, ?> root = StorageConfigFile.load("--storage-config", storageConfig);
        JobInfoStorageConfig storage = StorageConfigFile.check("--storage-config", storageConfig, root);
        String mode = null;
        if (root.get("seatunnel") instanceof Map) {
            try {
                mode = DropInSettings.fromRoot(root, storageConfig.toString(), new Properties()).mode().name()
                        .toLowerCase(Locale.ROOT);
            } catch (InvalidConfigurationException e) {
                throw new OpsException(ExitCodes.USAGE, String.join("; ", e.problems()));
            } catch (DropInRefusedException e) {
                throw new OpsException(ExitCodes.USAGE, e.getMessage());
            }
        }
        String storeId = null;
        if (openStore) {
            try (JobInfoStore store = JobInfoStores.open(storage)) {
                storeId = store.storeId();
            } catch (JobInfoStoreException e) {
                throw new OpsException(ExitCodes.UNREACHABLE, prefix + "the store could not be opened: "
                        + e.getMessage(), e);
            }
        }
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("file", storageConfig.toString());
            out.put("valid", true);
            out.put("type", storage.type());
            out.put("namespace", storage.namespace());
            out.put("dropInMode", mode);
            out.put("storeOpened", openStore);
            out.put("storeId", storeId);
            printJson(out);
        } else {
            out().println("ok: " + storageConfig + ": store " + storage.type() + " at " + storage.namespace()
                    + (storeId != null ? " (store id '" + storeId + "', opened and closed)" : "")
                    + (mode != null ? "; drop-in mode " + mode : "; no seatunnel.engine section (not a seatunnel.yaml)"));
            out().flush();
        }
        return ExitCodes.OK;
    }
}
