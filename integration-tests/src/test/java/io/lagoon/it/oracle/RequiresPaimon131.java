package io.lagoon.it.oracle;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Put on every test class that uses {@link PaimonOracle} (the Paimon 1.3.1 Java API): the class is
 * skipped in the {@code paimon-0.9} Surefire execution, whose class path holds Paimon 0.9 instead.
 *
 * <p>Why: Surefire's {@code -Dtest=...} overrides the executions' includes/excludes, so
 * {@code -Dtest=PaimonOracleTest} also runs {@code PaimonOracleTest} in the Paimon 0.9 JVM.
 * The counterpart is {@code io.lagoon.it.paimon09.RequiresPaimon09}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresPaimon131.Condition.class)
public @interface RequiresPaimon131 {

    /** Enabled unless Paimon 0.9's Spark connector is on the class path. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return TestClasspath.hasPaimon09Spark()
                    ? ConditionEvaluationResult.disabled("Paimon 0.9 class path (paimon-0.9 execution): needs Paimon 1.3.1")
                    : ConditionEvaluationResult.enabled("Paimon 1.3.1 class path");
        }
    }
}
