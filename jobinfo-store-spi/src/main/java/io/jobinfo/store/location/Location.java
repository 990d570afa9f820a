package io.jobinfo.store.location;

import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

/**
 * Where a blob or a store's namespace lives, as an absolute URI:
 * {@code file:///var/lib/jobinfo/000000000000007b.jobinfo}, {@code hdfs://ns/jobinfo/000000000000007b.jobinfo},
 * {@code s3://bucket/prefix/000000000000007b.jobinfo}. Backends build their own (see
 * {@code JobInfoStore.location(long)}) and nobody parses one back into keys or file names: a leftover is removed
 * through {@code StoredBlob.leftoverToken()}. Immutable; equal when the URI strings are (nothing is normalised), and
 * {@link #toString()} is that string exactly, as messages and reports print it.
 */
public final class Location implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** Characters a path segment holds as they are (RFC 3986 pchar without percent-encoding). */
    private static final String SEGMENT_PUNCTUATION = "-._~!$&'()*+,;=:@";

    private final String uri;
    private final transient URI parsed;

    private Location(String uri, URI parsed) {
        this.uri = uri;
        this.parsed = parsed;
    }

    /**
     * @param uri an absolute URI, percent-encoded where a URI needs it
     * @throws IllegalArgumentException naming {@code uri} if it is null, empty, not a URI or has no scheme
     */
    public static Location of(String uri) {
        if (uri == null || uri.isEmpty()) {
            throw new IllegalArgumentException("a location needs a URI, got " + (uri == null ? "null" : "''"));
        }
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a location: '" + uri + "' is not a URI (" + e.getReason()
                    + " at index " + e.getIndex() + ")");
        }
        if (parsed.getScheme() == null) {
            throw new IllegalArgumentException("not a location: '" + uri + "' names no scheme (such as file:, hdfs:,"
                    + " s3:)");
        }
        return new Location(uri, parsed);
    }

    /**
     * The location {@code scheme:name} of something that is not a file, such as a Hazelcast map
     * ({@code map:engine_runningJobInfo}): {@code name} as it is where a URI holds it so, percent-encoded elsewhere.
     *
     * @throws IllegalArgumentException naming both if {@code name} is null or empty or they make no URI
     */
    public static Location of(String scheme, String name) {
        if (scheme == null || name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a location needs a scheme and a name, got " + scheme + " and "
                    + (name == null ? "null" : "'" + name + "'"));
        }
        try {
            return of(new URI(scheme, name, null).toString());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a location: the scheme '" + scheme + "' and the name '" + name
                    + "' make no URI (" + e.getReason() + ")");
        }
    }

    /** {@code file}, {@code hdfs}, {@code s3}, ... */
    public String scheme() {
        return parsed.getScheme();
    }

    /** The path, decoded ({@code /prefix/000000000000007b.jobinfo}); empty when the URI has none. */
    public String path() {
        String path = parsed.getPath();
        return path == null ? "" : path;
    }

    /** The last segment of the path, decoded ({@code 000000000000007b.jobinfo}); empty when the path ends with '/'. */
    public String fileName() {
        String raw = rawPath();
        String segment = raw.substring(raw.lastIndexOf('/') + 1);
        // behind "x:/" the segment is the path of a URI, which decodes it
        return segment.indexOf('%') < 0 ? segment : URI.create("x:/" + segment).getPath().substring(1);
    }

    /**
     * The location of the directory this one names an entry of: this URI up to and including the last '/' of its
     * path ({@code s3://bucket/prefix/} for {@code s3://bucket/prefix/000000000000007b.jobinfo}).
     *
     * @throws IllegalStateException if this location names no entry of a directory (its {@link #fileName()} is empty)
     */
    public Location parent() {
        String raw = rawPath();
        if (raw.lastIndexOf('/') < 0 || fileName().isEmpty()) {
            throw new IllegalStateException("the location '" + uri + "' names no entry of a directory");
        }
        String withoutTail = uri.substring(0, uri.length() - tailLength());
        int pathStart = withoutTail.length() - raw.length();
        return of(withoutTail.substring(0, pathStart + raw.lastIndexOf('/') + 1));
    }

    /**
     * The entry {@code childName} of the directory this location names: {@code s3://bucket/prefix/} (or
     * {@code s3://bucket/prefix}) and {@code 000000000000007b.jobinfo} give
     * {@code s3://bucket/prefix/000000000000007b.jobinfo}. Characters a URI path cannot hold are percent-encoded, so
     * the result's {@link #fileName()} is {@code childName}.
     *
     * @throws IllegalArgumentException naming {@code childName} if it is null, empty, holds a '/', or is '.' or '..':
     *     it must name an entry of this directory and nothing else (without a '/', '..' and '.' are the only names
     *     that step out of it)
     * @throws IllegalStateException    if this location has a query or a fragment, or no hierarchical path
     */
    public Location resolve(String childName) {
        if (childName == null || childName.isEmpty() || childName.equals(".") || childName.equals("..")
                || childName.contains("/")) {
            throw new IllegalArgumentException("not the name of an entry of " + uri + ": "
                    + (childName == null ? "null" : "'" + childName + "'")
                    + " (a name is not empty, not '.' or '..', and holds no '/')");
        }
        if (parsed.isOpaque() || parsed.getRawQuery() != null || parsed.getRawFragment() != null) {
            throw new IllegalStateException("the location '" + uri + "' is not a directory a name can be resolved"
                    + " against (it has a query, a fragment, or no hierarchical path)");
        }
        return of(uri + (uri.endsWith("/") ? "" : "/") + encodeSegment(childName));
    }

    /** The URI, exactly as given to {@link #of}. */
    @Override
    public String toString() {
        return uri;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Location && ((Location) o).uri.equals(uri);
    }

    @Override
    public int hashCode() {
        return uri.hashCode();
    }

    private String rawPath() {
        String raw = parsed.getRawPath();
        return raw == null ? "" : raw;
    }

    /** The length of {@code ?query} and {@code #fragment} at the end of the URI. */
    private int tailLength() {
        int n = 0;
        if (parsed.getRawQuery() != null) {
            n += 1 + parsed.getRawQuery().length();
        }
        if (parsed.getRawFragment() != null) {
            n += 1 + parsed.getRawFragment().length();
        }
        return n;
    }

    private static String encodeSegment(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || SEGMENT_PUNCTUATION.indexOf(c) >= 0) {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
            }
        }
        return sb.toString();
    }

    /** Deserialized through {@link #of}, so a location read from a stream is checked like any other. */
    private Object readResolve() {
        return of(uri);
    }
}
