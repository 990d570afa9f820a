package io.jobinfo.store.seatunnel.dropin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The {@link DropInStepListener}s of this JVM, loaded once; with none (the default) a step costs one empty-list check.
 */
final class DropInSteps {

    private static final List<DropInStepListener> LISTENERS = load();

    private DropInSteps() {
    }

    private static List<DropInStepListener> load() {
        List<DropInStepListener> found = new ArrayList<>();
        try {
            for (DropInStepListener l : ServiceLoader.load(DropInStepListener.class,
                    DropInStepListener.class.getClassLoader())) {
                found.add(l);
            }
        } catch (ServiceConfigurationError e) {
            // a listener that cannot be loaded is left out; the drop-in never depends on one
        }
        return found.isEmpty() ? Collections.<DropInStepListener>emptyList() : Collections.unmodifiableList(found);
    }

    /** Tells every listener; a listener's {@link RuntimeException} is ignored. */
    static void reached(DropInStepListener.Step step, long jobId) {
        if (LISTENERS.isEmpty()) {
            return;
        }
        for (DropInStepListener l : LISTENERS) {
            try {
                l.reached(step, jobId);
            } catch (RuntimeException ignored) {
                // a listener never disturbs the drop-in
            }
        }
    }
}
