package io.jobinfo.store.cli;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads the {@code --storage-config} file of every command and checks it completely, core and backend keys, before
 * anything is started or connected. Every failure is an {@link Invalid} whose message names the option and the file,
 * lists every problem found, and never holds a value of the file: SnakeYAML's own messages quote the offending line
 * (which may be {@code s3.secret-key: ...}), so parse errors are reported as the problem and its line and column only.
 */
public final class StorageConfigFile {

    /** Larger files are refused before they are read: a jobinfo-storage section is a few hundred bytes. */
    public static final long MAX_BYTES = 1L << 20;

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
        String prefix = option + " " + file + ": ";
        byte[] bytes;
        try {
            if (!Files.isRegularFile(file)) {
                throw new NoSuchFileException(file.toString());
            }
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new Invalid(prefix + "is " + size + " bytes, more than the " + (MAX_BYTES >> 20)
                        + " MiB a storage configuration may have; give the file with the jobinfo-storage section");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new Invalid(prefix + "no such file; give the YAML with the jobinfo-storage section that the engine"
                    + " uses");
        } catch (IOException e) {
            throw new Invalid(prefix + "cannot be read (" + e.getClass().getSimpleName() + "); check its permissions");
        }
        if (bytes.length > MAX_BYTES) {
            throw new Invalid(prefix + "is larger than " + (MAX_BYTES >> 20) + " MiB");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Invalid(prefix + "is not UTF-8 text; save it as UTF-8");
        }
        Object root = parse(prefix, text);
        if (root == null) {
            throw new Invalid(prefix + "is empty (or only comments); it needs a jobinfo-storage section with at"
                    + " least type and namespace");
        }
        if (!(root instanceof Map)) {
            throw new Invalid(prefix + "must be a YAML mapping with a jobinfo-storage section, not "
                    + (root instanceof List ? "a list" : "a single value"));
        }
        try {
            return JobInfoStores.checked((Map<?, ?>) root);
        } catch (InvalidConfigurationException e) {
            throw new Invalid(prefix + e.getMessage());
        }
    }

    private static Object parse(String prefix, String text) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit((int) MAX_BYTES);
        options.setMaxAliasesForCollections(10);
        options.setNestingDepthLimit(20);
        options.setAllowRecursiveKeys(false);
        options.setTagInspector(tag -> false); // no global tags at all (SafeConstructor refuses class tags too)
        try {
            // SafeConstructor: plain maps, lists and scalars; a tag naming a class is an error, never instantiated
            List<Object> documents = new ArrayList<>();
            for (Object document : new Yaml(new SafeConstructor(options)).loadAll(text)) {
                documents.add(document);
            }
            if (documents.size() > 1) {
                throw new Invalid(prefix + "holds " + documents.size() + " YAML documents (separated by ---);"
                        + " keep only the one with the jobinfo-storage section");
            }
            return documents.isEmpty() ? null : documents.get(0);
        } catch (MarkedYAMLException e) {
            throw new Invalid(prefix + "is not valid YAML: " + describe(e)
                    + "; fix the file (the line's content is not shown, it may hold a credential)");
        } catch (YAMLException e) {
            throw new Invalid(prefix + "is not valid YAML: " + safeProblem(e.getMessage()));
        }
    }

    /** The problem and where: SnakeYAML's context and problem texts, and line/column, never the quoted snippet. */
    static String describe(MarkedYAMLException e) {
        StringBuilder b = new StringBuilder();
        if (e.getContext() != null) {
            b.append(safeProblem(e.getContext()));
            Mark context = e.getContextMark();
            if (context != null) {
                b.append(" at line ").append(context.getLine() + 1).append(", column ").append(context.getColumn() + 1);
            }
            b.append(": ");
        }
        String what = e.getProblem() == null ? "unreadable" : safeProblem(e.getProblem());
        if (what.startsWith("Global tag is not allowed: ")) {
            what = "the tag " + what.substring("Global tag is not allowed: ".length()).replace("tag:yaml.org,2002:", "!!")
                    + " is not allowed (tags naming classes are refused; write plain values)";
        }
        b.append(what);
        Mark problem = e.getProblemMark();
        if (problem != null) {
            b.append(" at line ").append(problem.getLine() + 1).append(", column ").append(problem.getColumn() + 1);
        }
        return b.toString();
    }

    /**
     * SnakeYAML's problem texts name characters, tags and keys ("found duplicate key s3.bucket"), not values; this
     * keeps their first line only and cuts anything quoted after a tag or key long enough to be a value.
     */
    private static String safeProblem(String text) {
        String line = text.strip();
        int nl = line.indexOf('\n');
        if (nl >= 0) {
            line = line.substring(0, nl).strip();
        }
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }
}
