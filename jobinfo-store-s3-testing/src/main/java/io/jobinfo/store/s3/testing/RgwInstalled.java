package io.jobinfo.store.s3.testing;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Disables (reports as skipped, with the reason) the tests of a class where Ceph RGW cannot run
 * ({@link RgwServer#unavailable()}). Apart from {@link RgwServer}, which has no JUnit in it (the benchmarks start it).
 */
public final class RgwInstalled implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String reason = RgwServer.unavailable();
        return reason == null ? ConditionEvaluationResult.enabled("Ceph RGW is installed")
                : ConditionEvaluationResult.disabled(reason);
    }
}
