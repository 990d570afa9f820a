package io.jobinfo.store.spi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a backend's {@link JobInfoStoreFactory#describeOptions()} from a text resource next to its factory, so that
 * the option reference is prose in a file rather than a wall of {@code put} calls. The format, line by line:
 * <ul>
 *   <li>a line starting with {@code #} is a comment, a blank line is ignored;</li>
 *   <li>a line starting with anything but white space is an option key;</li>
 *   <li>an indented line continues the description of the key above it (lines are joined with one space);</li>
 *   <li>{@code ${name}} in a description is replaced by the value given for {@code name} (a default that lives in a
 *       constant of the code, so that the text cannot drift from it).</li>
 * </ul>
 * Keys keep the order of the file.
 */
public final class OptionDescriptions {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.-]+)}");

    private OptionDescriptions() {
    }

    /**
     * The options described in {@code resource}, resolved against {@code owner}'s package.
     *
     * @throws IllegalStateException the resource is missing, a description stands before any key, a key has no
     *     description or stands twice, or a placeholder has no value: a packaging error, named with the resource
     */
    public static Map<String, String> load(Class<?> owner, String resource, Map<String, ?> values) {
        String where = owner.getPackage().getName().replace('.', '/') + "/" + resource;
        Map<String, StringBuilder> read = new LinkedHashMap<>();
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("option descriptions " + where + " are missing from the jar of "
                        + owner.getName());
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            StringBuilder current = null;
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.trim().isEmpty() || line.startsWith("#")) {
                    continue;
                }
                if (!Character.isWhitespace(line.charAt(0))) {
                    String key = line.trim();
                    current = new StringBuilder();
                    if (read.put(key, current) != null) {
                        throw new IllegalStateException(where + ": option " + key + " is described twice");
                    }
                } else if (current == null) {
                    throw new IllegalStateException(where + ": a description stands before the first key");
                } else {
                    current.append(current.length() == 0 ? "" : " ").append(line.trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading option descriptions " + where, e);
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (Map.Entry<String, StringBuilder> e : read.entrySet()) {
            if (e.getValue().length() == 0) {
                throw new IllegalStateException(where + ": option " + e.getKey() + " has no description");
            }
            options.put(e.getKey(), substitute(where, e.getKey(), e.getValue().toString(), values));
        }
        return Collections.unmodifiableMap(options);
    }

    private static String substitute(String where, String key, String text, Map<String, ?> values) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuffer out = new StringBuffer();
        while (m.find()) {
            Object value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException(where + ": the description of " + key + " names ${" + m.group(1)
                        + "}, which has no value");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(String.valueOf(value)));
        }
        m.appendTail(out);
        return out.toString();
    }
}
