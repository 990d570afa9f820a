package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.internal.services.ManagedService;
import com.hazelcast.logging.ILogger;
import com.hazelcast.scheduledexecutor.impl.DistributedScheduledExecutorService;
import com.hazelcast.spi.impl.NodeEngine;

import java.util.Properties;

/**
 * Prepares the shutdown of a member the drop-in refuses. The refusal is thrown while Hazelcast registers the member's
 * services, before it initializes any; Hazelcast then shuts down ("Terminating forcefully") every service it had
 * registered. Its scheduled executor service cannot be shut down uninitialized: on Hazelcast 5.1 its shutdown walks a
 * partition array that only {@code init} creates, and the NullPointerException is logged at ERROR right after the
 * drop-in's refusal, an unrelated error that hides the reason. Initializing it first (empty containers, no thread, no
 * task) lets that shutdown end quietly.
 */
final class RefusalShutdown {

    private RefusalShutdown() {
    }

    /** Best effort: anything that fails here is logged at FINE and the refusal goes on as before. */
    static void prepare(NodeEngine engine, ILogger logger) {
        try {
            Object scheduled = engine.getServiceOrNull(DistributedScheduledExecutorService.SERVICE_NAME);
            if (scheduled instanceof ManagedService) {
                ((ManagedService) scheduled).init(engine, new Properties());
            }
        } catch (RuntimeException | LinkageError e) {
            logger.fine("could not prepare the scheduled executor service for the refused member's shutdown: " + e);
        }
    }
}
