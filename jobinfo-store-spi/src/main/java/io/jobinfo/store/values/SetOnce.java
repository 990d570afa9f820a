package io.jobinfo.store.values;

import java.util.HashSet;
import java.util.Set;

/**
 * The properties a builder has been given so far, so that each is given at most once: a second call for the same
 * property is a mistake of the caller (two places configuring one thing, the later silently winning), and fails.
 * Not thread-safe, like the builders that use it.
 */
public final class SetOnce {
    private final String builder;
    private final Set<String> given = new HashSet<>();

    /** @param builder the builder's name, for messages, such as {@code "RunningJobInfoRegistry.Builder"} */
    public SetOnce(String builder) {
        this.builder = builder;
    }

    /**
     * Records that {@code property} is being set to {@code value} and returns the value, for
     * {@code this.x = properties.set("x", checked(x));}: a value whose check throws first is not recorded.
     *
     * @throws IllegalStateException naming the property, when it was set before
     */
    public <V> V set(String property, V value) {
        if (!given.add(property)) {
            throw new IllegalStateException(builder + ": " + property + " is already set; each property can be set"
                    + " once");
        }
        return value;
    }

    /**
     * {@code value} if it lies in {@code min..max}.
     *
     * @throws IllegalArgumentException {@code "<what> must be <min>..<max>: <value>"}
     */
    public static int within(String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " must be " + min + ".." + max + ": " + value);
        }
        return value;
    }
}
