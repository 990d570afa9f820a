package io.jobinfo.store.values;

import java.time.Duration;
import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The properties a builder has been given so far, so that each is given at most once: a second call for the same
 * property is a mistake of the caller (two places configuring one thing, the later silently winning), and fails
 * naming the property and the value it already has. Values are shown only if they are plain settings (numbers,
 * booleans, enums, durations, times, strings, collections of them, cut at 80 characters); any other object is shown
 * by its type, so a builder must not pass a secret to {@link #set} as a string. Not thread-safe, like the builders
 * that use it.
 */
public final class SetOnce {
    private static final int SHOWN_CHARS = 80;

    private final String builder;
    private final Map<String, Object> given = new HashMap<>();

    /** @param builder the builder's name, for messages, such as {@code "RunningJobInfoRegistry.Builder"} */
    public SetOnce(String builder) {
        this.builder = builder;
    }

    /**
     * Records that {@code property} is being set to {@code value} and returns the value, for
     * {@code this.x = properties.set("x", checked(x));}: a value whose check throws first is not recorded.
     *
     * @throws IllegalStateException {@code "<builder>: <property> is already set to <value>; ..."} when it was set
     *     before
     */
    public <V> V set(String property, V value) {
        if (given.containsKey(property)) {
            throw new IllegalStateException(builder + ": " + property + " is already set to "
                    + shown(given.get(property)) + "; each property can be set once (set it in one place)");
        }
        given.put(property, value);
        return value;
    }

    /**
     * {@code value} if it lies in {@code min..max}.
     *
     * @param setting the setting's name as the caller wrote it (the builder method), for the message
     * @throws IllegalArgumentException {@code "<setting> must be <min>..<max>, not <value>"}
     */
    public static int within(String setting, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(setting + " must be " + min + ".." + max + ", not " + value);
        }
        return value;
    }

    /** {@code "PT10M"}, {@code "'jobs'"}, {@code "a SimpleMeterRegistry"}. */
    static String shown(Object value) {
        if (value == null) {
            return "null";
        }
        String text;
        if (value instanceof CharSequence) {
            text = "'" + value + "'";
        } else if (value instanceof Number || value instanceof Boolean || value instanceof Enum
                || value instanceof Duration || value instanceof Temporal) {
            text = value.toString();
        } else if (value instanceof Collection && ((Collection<?>) value).stream().allMatch(SetOnce::plain)) {
            text = value.toString();
        } else {
            Class<?> named = value.getClass();
            if (named.getSimpleName().startsWith("AutoValue_")) {
                named = named.getSuperclass(); // the value class a user knows, not the generated one
            }
            String type = named.getSimpleName();
            return "a " + (type.isEmpty() ? named.getName() : type);
        }
        return text.length() <= SHOWN_CHARS ? text : text.substring(0, SHOWN_CHARS) + "...";
    }

    private static boolean plain(Object o) {
        return o instanceof Number || o instanceof Boolean || o instanceof Enum || o instanceof CharSequence;
    }
}
