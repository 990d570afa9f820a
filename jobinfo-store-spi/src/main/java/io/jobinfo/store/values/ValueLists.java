package io.jobinfo.store.values;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** Copies for list components of value classes. */
public final class ValueLists {
    private ValueLists() {
    }

    /** An unmodifiable copy of {@code items}, for a component that is a list. */
    public static <T> List<T> copyOf(Collection<? extends T> items) {
        return Collections.unmodifiableList(new ArrayList<>(items));
    }
}
