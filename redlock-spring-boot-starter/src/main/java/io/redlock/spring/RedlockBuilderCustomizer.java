package io.redlock.spring;

import io.redlock.Redlock;
import io.redlock.RedlockBuilder;

/**
 * Adjusts the auto-configured {@link RedlockBuilder} after the {@code redlock.*} properties were applied and before
 * the Redlock is built, e.g. to share Lettuce {@code ClientResources}. Applied in {@code @Order} order.
 */
@FunctionalInterface
public interface RedlockBuilderCustomizer {

    void customize(RedlockBuilder builder);
}
