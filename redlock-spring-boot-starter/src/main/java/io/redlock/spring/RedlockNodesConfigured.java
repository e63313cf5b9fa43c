package io.redlock.spring;

import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when a property that selects the Redis nodes is set ({@code redlock.nodes}, {@code redlock.single.address},
 * {@code redlock.sentinel.master-name} or {@code .addresses}), even to a bad value, which then fails startup naming
 * it, or a {@link RedlockConnectionDetails} bean exists. With none of them the starter backs off: no {@code Redlock}
 * bean, one INFO line ({@link Missing}).
 */
final class RedlockNodesConfigured extends SpringBootCondition {

    /** The properties that select the nodes, one per mode. */
    private static final List<String> SELECTORS = List.of(RedlockPropertiesMapper.NODES,
            RedlockPropertiesMapper.SINGLE_ADDRESS, RedlockPropertiesMapper.SENTINEL_MASTER,
            RedlockPropertiesMapper.SENTINEL_ADDRESSES);

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        if (context.getBeanFactory() != null && context.getBeanFactory()
                .getBeanNamesForType(RedlockConnectionDetails.class, true, false).length > 0) {
            return ConditionOutcome.match("a RedlockConnectionDetails bean gives the nodes");
        }
        Binder binder = Binder.get(context.getEnvironment());
        for (String name : SELECTORS) {
            if (binder.bind(name, Bindable.listOf(String.class)).isBound()) {
                return ConditionOutcome.match(name + " is set");
            }
        }
        return ConditionOutcome.noMatch("none of " + String.join(", ", SELECTORS) + " is set");
    }

    /** The opposite: no property selects the nodes. */
    static final class Missing extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConditionOutcome configured = new RedlockNodesConfigured().getMatchOutcome(context, metadata);
            return new ConditionOutcome(!configured.isMatch(), configured.getConditionMessage());
        }
    }
}
