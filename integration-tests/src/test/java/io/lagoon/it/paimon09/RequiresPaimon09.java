package io.lagoon.it.paimon09;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.lagoon.it.oracle.TestClasspath;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Put on every test class in this package: the class runs only where Paimon 0.9's Spark connector
 * is on the class path (the {@code paimon-0.9} Surefire execution) and is skipped in the default
 * execution. Surefire's {@code -Dtest=...} overrides the executions' includes/excludes, so without
 * this {@code -Dtest=Paimon09FixtureTest} would also run in the default (Paimon 1.3.1) JVM.
 * Also tags the class {@code paimon09}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("paimon09")
@ExtendWith(RequiresPaimon09.Condition.class)
public @interface RequiresPaimon09 {

    /** Enabled only if Paimon 0.9's Spark connector is on the class path. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return TestClasspath.hasPaimon09Spark()
                    ? ConditionEvaluationResult.enabled("Paimon 0.9 class path")
                    : ConditionEvaluationResult.disabled("not the paimon-0.9 execution: Paimon 0.9's Spark connector absent");
        }
    }
}
