package io.redlock.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports {@link RedlockPropertiesException} as a start-up failure that names the {@code redlock.*} properties. */
public class RedlockPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<RedlockPropertiesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, RedlockPropertiesException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
