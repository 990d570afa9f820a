package io.jobinfo.store.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads configuration YAML defensively. A file or stream larger than {@link #MAX_BYTES} is refused before it is
 * parsed; the text must be UTF-8 and one document; duplicate keys, tags ({@code !!java.lang...}), recursive keys and
 * more than a few aliases are errors; only plain mappings, lists and scalars are built ({@code SafeConstructor}), so a
 * document never names a class that is loaded. Every failure is an {@link InvalidConfigurationException} with one
 * problem that says what and where (line and column) but never quotes the file: SnakeYAML's own messages print the
 * offending line, which may be {@code s3.secret-key: ...}.
 */
public final class ConfigYaml {

    /** The largest configuration accepted, in bytes (UTF-8) or characters: 1 MiB. */
    public static final int MAX_BYTES = 1 << 20;

    private static final String TAG_PREFIX = "Global tag is not allowed: ";

    private ConfigYaml() {
    }

    /**
     * The document of {@code file} as a mapping.
     *
     * @throws IOException                   the file cannot be read (missing: {@link java.nio.file.NoSuchFileException})
     * @throws InvalidConfigurationException too large, not UTF-8, not YAML, empty, or not a mapping
     */
    public static Map<?, ?> loadMapping(Path file) throws IOException {
        long size = Files.size(file);
        if (size > MAX_BYTES) {
            throw problem("the file is " + size + " bytes, more than the 1 MiB a configuration may have; give the"
                    + " file with the jobinfo-storage section");
        }
        return mapping(decode(Files.readAllBytes(file)));
    }

    /**
     * The document read from {@code in} (not closed) as a mapping; reads at most {@link #MAX_BYTES} + 1 bytes.
     *
     * @throws InvalidConfigurationException too large, unreadable, not UTF-8, not YAML, empty, or not a mapping
     */
    public static Map<?, ?> loadMapping(InputStream in) {
        byte[] buffer = new byte[8192];
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try {
            int n;
            while ((n = in.read(buffer)) > 0) {
                bytes.write(buffer, 0, n);
                if (bytes.size() > MAX_BYTES) {
                    throw tooLarge();
                }
            }
        } catch (IOException e) {
            throw problem("the YAML cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        return mapping(decode(bytes.toByteArray()));
    }

    /**
     * The document of {@code yaml} as a mapping.
     *
     * @throws InvalidConfigurationException too large, not YAML, empty, or not a mapping
     */
    public static Map<?, ?> loadMapping(String yaml) {
        if (yaml.length() > MAX_BYTES) {
            throw tooLarge();
        }
        return mapping(yaml);
    }

    private static String decode(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw problem("the file is not UTF-8 text; save it as UTF-8");
        }
    }

    private static Map<?, ?> mapping(String text) {
        Object root = parse(text);
        if (root == null) {
            throw problem("the YAML is empty (or only comments); it needs a jobinfo-storage section with at least"
                    + " type and namespace");
        }
        if (!(root instanceof Map)) {
            throw problem("the YAML must be a mapping with a jobinfo-storage section, not "
                    + (root instanceof List ? "a list" : "a single value"));
        }
        return (Map<?, ?>) root;
    }

    private static Object parse(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(MAX_BYTES);
        options.setMaxAliasesForCollections(10);
        options.setNestingDepthLimit(20);
        options.setAllowRecursiveKeys(false);
        options.setTagInspector(tag -> false); // no global tags; SafeConstructor would refuse class tags as well
        try {
            List<Object> documents = new ArrayList<>();
            for (Object document : new Yaml(new SafeConstructor(options)).loadAll(new StringReader(text))) {
                documents.add(document);
            }
            if (documents.size() > 1) {
                throw problem("the YAML holds " + documents.size() + " documents (separated by ---); keep only the"
                        + " one with the jobinfo-storage section");
            }
            return documents.isEmpty() ? null : documents.get(0);
        } catch (YAMLException e) {
            throw problem("the file is not valid YAML: " + describeSafely(e));
        }
    }

    /**
     * What SnakeYAML found wrong, with line and column, never quoting the text it read (its own messages print the
     * offending line, which may hold a credential); for readers of YAML other than this class.
     */
    public static String describeSafely(YAMLException e) {
        if (e instanceof MarkedYAMLException) {
            return describe((MarkedYAMLException) e) + "; fix it there (the line is not shown, it may hold a"
                    + " credential)";
        }
        return firstLine(e.getMessage());
    }

    /** SnakeYAML's context and problem, each with line and column, never its quoted snippet of the file. */
    static String describe(MarkedYAMLException e) {
        StringBuilder b = new StringBuilder();
        if (e.getContext() != null) {
            b.append(firstLine(e.getContext())).append(at(e.getContextMark())).append(": ");
        }
        String what = e.getProblem() == null ? "unreadable" : firstLine(e.getProblem());
        if (what.startsWith(TAG_PREFIX)) {
            what = "the tag " + what.substring(TAG_PREFIX.length()).replace("tag:yaml.org,2002:", "!!")
                    + " is not allowed (tags are refused; write plain values)";
        }
        return b.append(what).append(at(e.getProblemMark())).toString();
    }

    private static String at(Mark mark) {
        return mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
    }

    /**
     * SnakeYAML's problem texts name characters, tokens, tags and keys ("found duplicate key s3.bucket"), never
     * values; only their first line is kept, at most 160 characters.
     */
    private static String firstLine(String text) {
        String line = text == null ? "no detail" : text.trim();
        int nl = line.indexOf('\n');
        if (nl >= 0) {
            line = line.substring(0, nl).trim();
        }
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }

    private static InvalidConfigurationException tooLarge() {
        return problem("the YAML is larger than 1 MiB, far more than a configuration needs; give the file with the"
                + " jobinfo-storage section");
    }

    private static InvalidConfigurationException problem(String problem) {
        return new InvalidConfigurationException(Collections.singletonList(problem));
    }
}
