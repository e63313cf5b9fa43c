package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.allMessages;
import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.aop.Advisor;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code @Locked} advisor: only with Spring AOP; bad annotations fail start-up naming the method. */
class LockedAutoConfigurationTest {

    private final ApplicationContextRunner runner = runner();

    @Test
    void lockedAdvisorOnlyWithSpringAop() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .run(context -> assertThat(context).hasSingleBean(LockedAdvisor.class));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withClassLoader(new FilteredClassLoader(Advisor.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockedAdvisor.class));
    }

    @Test
    void badLockedAnnotationsFailAtStartupNamingTheMethod() {
        String[] nodes = {"redlock.nodes=redis://127.0.0.1:1"};
        runner.withPropertyValues(nodes).withBean(BadTtl.class).run(context -> assertThat(allMessages(
                context.getStartupFailure())).contains("@Locked on " + BadTtl.class.getName() + ".run()",
                        "ttl 'soon' is not a duration"));
        runner.withPropertyValues(nodes).withBean(BadSpel.class).run(context -> assertThat(allMessages(
                context.getStartupFailure())).contains("BadSpel.run(): resource ''orders:' + ' is not a SpEL expression"));
        runner.withPropertyValues(nodes).withBean(SkipOnPrimitive.class).run(context -> assertThat(allMessages(
                context.getStartupFailure())).contains("onBusy = SKIP needs a method returning void or an object"));
        runner.withPropertyValues(nodes).withBean(PlainFuture.class).run(context -> assertThat(allMessages(
                context.getStartupFailure())).contains("returns java.util.concurrent.Future, whose end the lock cannot"
                        + " follow"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "my.ttl=45s").withBean(Placeholder.class).run(context -> {
            assertThat(context).hasNotFailed();
            LockedAdvisor advisor = context.getBean(LockedAdvisor.class);
            assertThat(org.springframework.aop.support.AopUtils.isAopProxy(context.getBean(Placeholder.class))).isTrue();
            assertThat(advisor.getPointcut().getMethodMatcher().matches(
                    Placeholder.class.getMethod("run"), Placeholder.class)).isTrue();
        });
    }

    @Test
    void skippedCallsReturnAnEmptyValueOfTheDeclaredType() {
        assertThat(LockedOperationSource.skippedValue(void.class).get()).isNull();
        assertThat(LockedOperationSource.skippedValue(String.class).get()).isNull();
        assertThat(LockedOperationSource.skippedValue(java.util.Optional.class).get()).isEqualTo(java.util.Optional.empty());
        assertThat(LockedOperationSource.skippedValue(List.class).get()).isEqualTo(List.of());
        assertThat(LockedOperationSource.skippedValue(java.util.Collection.class).get()).isEqualTo(List.of());
        assertThat(LockedOperationSource.skippedValue(java.util.Set.class).get()).isEqualTo(java.util.Set.of());
        assertThat(LockedOperationSource.skippedValue(java.util.Map.class).get()).isEqualTo(java.util.Map.of());
        assertThat(LockedOperationSource.skippedValue(ArrayList.class).get()).isNull();
        assertThat(LockedOperationSource.skippedValue(int.class)).isNull();
    }

    static class BadTtl {
        @Locked(resource = "'x'", ttl = "soon")
        public void run() {
        }
    }

    static class BadSpel {
        @Locked(resource = "'orders:' + ")
        public void run() {
        }
    }

    static class SkipOnPrimitive {
        @Locked(resource = "'x'", onBusy = OnBusy.SKIP)
        public int run() {
            return 1;
        }
    }

    static class PlainFuture {
        @Locked(resource = "'x'")
        public java.util.concurrent.Future<String> run() {
            return java.util.concurrent.CompletableFuture.completedFuture("x");
        }
    }

    static class Placeholder {
        @Locked(resource = "'x'", ttl = "${my.ttl}", maxWait = "${my.wait:0s}")
        public void run() {
        }
    }
}
