package io.jobinfo.store.cli.ops;

import io.jobinfo.store.config.ConfigYaml;
import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads the {@code --storage-config} file of every command and checks it completely, core and backend keys, before
 * anything is started or connected. The YAML is read by the api's {@link ConfigYaml} (size limit before parsing, no
 * duplicate keys, no tags, messages without the file's content). Every failure is an {@link Invalid} whose message
 * names the option and the file and lists every problem found.
 */
public final class StorageConfigFile {

    private StorageConfigFile() {
    }

    /** A configuration file that cannot be used; the message says why and what to do, and holds no file content. */
    public static final class Invalid extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    /**
     * Reads and checks {@code file}.
     *
     * @param option the option that named the file, for the message ({@code --storage-config})
     * @throws Invalid the file is missing, unreadable, too large, not YAML, or its section has problems (all listed)
     */
    public static JobInfoStorageConfig read(String option, Path file) {
        return check(option, file, load(option, file));
    }

    /**
     * Reads {@code file} as YAML (the api's {@link ConfigYaml} rules) and checks that it has a {@code jobinfo-storage}
     * section; the section itself is checked by {@link #check}.
     *
     * @throws Invalid the file is missing, unreadable, too large, not YAML, or has no jobinfo-storage section
     */
    public static Map<?, ?> load(String option, Path file) {
        String prefix = option + " " + file + ": ";
        Map<?, ?> yaml;
        try {
            if (!Files.isRegularFile(file)) {
                throw new NoSuchFileException(file.toString());
            }
            yaml = ConfigYaml.loadMapping(file);
        } catch (NoSuchFileException e) {
            throw new Invalid(prefix + "no such file; give the YAML with the jobinfo-storage section that the engine"
                    + " uses");
        } catch (IOException e) {
            throw new Invalid(prefix + "cannot be read (" + e.getClass().getSimpleName() + "); check its permissions");
        } catch (InvalidConfigurationException e) {
            throw new Invalid(prefix + String.join("; ", e.problems()));
        }
        if (!JobInfoStorageConfig.hasSection(yaml)) {
            throw new Invalid(prefix + "has no jobinfo-storage section (looked at the top and up to three levels"
                    + " down, as under seatunnel.engine in a seatunnel.yaml). The guide's removal takes the section"
                    + " out of seatunnel.yaml: give the saved copy of it (docs/seatunnel.md, removal), or any file"
                    + " holding the section that names the store; nothing was changed");
        }
        return yaml;
    }

    /**
     * Checks the {@code jobinfo-storage} section of {@code yaml} (read from {@code file} by {@link #load}), core and
     * backend keys.
     *
     * @throws Invalid the section has problems (all listed)
     */
    public static JobInfoStorageConfig check(String option, Path file, Map<?, ?> yaml) {
        try {
            return JobInfoStores.checked(yaml);
        } catch (InvalidConfigurationException e) {
            boolean noHadoop = e.problems().stream().anyMatch(p -> p.contains("cannot run in this process")
                    && p.contains("org/apache/hadoop"));
            throw new Invalid(option + " " + file + ": " + e.getMessage() + (noHadoop ? NO_HADOOP : ""));
        }
    }

    /** What to do when the hdfs store finds no Hadoop: the command line does not ship it. */
    static final String NO_HADOOP = ". The command line carries no Hadoop of its own: run bin/jobinfo-store with"
            + " SEATUNNEL_HOME set to the SeaTunnel installation (it then uses the seatunnel-hadoop3-*-uber jar in its lib/,"
            + " the Hadoop the members use), or with JOBINFO_STORE_CLASSPATH set to Hadoop's client jars (the output of"
            + " 'hadoop classpath')";
}
