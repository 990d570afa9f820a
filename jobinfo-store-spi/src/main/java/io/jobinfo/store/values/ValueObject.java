package io.jobinfo.store.values;

import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Base of this project's immutable value classes in the modules that compile for Java 8 and so have no records:
 * {@link #equals}, {@link #hashCode} and {@link #toString} derive from one list of components, with the semantics a
 * record of those components would have. Equal when of the same class and every component is equal by
 * {@link Objects#equals} (an array component by identity, as in a record); the hash code is {@code 31 * h + hash}
 * over the components from {@code h = 0}; the string form is {@code SimpleName[a=1, b=2]}.
 *
 * <p>Not for classes whose equality or string form is part of a wire or storage format (Hazelcast
 * {@code DataSerializable} map values, for example): those keep their own.
 */
public abstract class ValueObject {

    /**
     * The components, each as its name followed by its value: {@code {"jobId", jobId, "location", location}}.
     * Called for every {@code equals}, {@code hashCode} and {@code toString}.
     */
    protected abstract Object[] components();

    /** An unmodifiable copy of {@code items}, for a component that is a list. */
    protected static <T> List<T> listOf(Collection<? extends T> items) {
        return ValueLists.copyOf(items);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        Object[] mine = components();
        Object[] theirs = ((ValueObject) o).components();
        for (int i = 1; i < mine.length; i += 2) {
            if (!Objects.equals(mine[i], theirs[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        Object[] c = components();
        int h = 0;
        for (int i = 1; i < c.length; i += 2) {
            h = 31 * h + Objects.hashCode(c[i]);
        }
        return h;
    }

    @Override
    public String toString() {
        Object[] c = components();
        StringBuilder s = new StringBuilder(getClass().getSimpleName()).append('[');
        for (int i = 0; i < c.length; i += 2) {
            s.append(i == 0 ? "" : ", ").append(c[i]).append('=').append(c[i + 1]);
        }
        return s.append(']').toString();
    }
}
