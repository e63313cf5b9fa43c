package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.allMessages;
import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.LockTarget.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.aop.Advisor;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The {@code @Locked} advisor: only with Spring AOP; bad annotations fail start-up naming the method
 * ({@link LockedAnnotationException}).
 */
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
    void contradictingResourceAttributesFailAtStartupWithTheTypedErrorNamingThem() {
        assertBadAnnotation(BothResourceAndResources.class, List.of("resource", "resources"),
                "resource and resources are both set");
        assertBadAnnotation(NoResource.class, List.of("resource", "resources"), "no resource; set resource");
        assertBadAnnotation(ReadOfSeveral.class, List.of("mode", "resources"),
                "mode = READ locks one resource, not several at once");
        assertBadAnnotation(WriteOfSeveral.class, List.of("mode", "resources"),
                "mode = WRITE locks one resource, not several at once");
        assertBadAnnotation(PermitsOfSeveral.class, List.of("permits", "resources"),
                "permits = 2 holds a permit of one resource's semaphore");
        assertBadAnnotation(PermitsOfARead.class, List.of("permits", "mode"),
                "permits = 2 holds a permit of one resource's semaphore");
        assertBadAnnotation(NegativePermits.class, List.of("permits", "mode"), "set it to 1 or more");
        assertBadAnnotation(BlankEntry.class, List.of("resources"), "resources[1] must not be blank");
        assertBadAnnotation(BadSpelEntry.class, List.of("resources"),
                "resources[1] ''b:' + ' is not a SpEL expression");
        assertBadAnnotation(BadTtl.class, List.of("ttl"), "ttl 'soon' is not a duration");
    }

    @Test
    void resourceWithItsModeOrResourcesChooseTheKindOfLockOnEveryInvocationStyle() throws Exception {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").withBean(Kinds.class)
                .run(context -> assertThat(context).hasNotFailed());
        LockedOperationSource operations = new LockedOperationSource(null);
        Map<String, Kind> kinds = Map.of("exclusive", Kind.LOCK, "read", Kind.READ, "write", Kind.WRITE,
                "several", Kind.SEVERAL, "oneOfSeveral", Kind.SEVERAL, "severalStage", Kind.SEVERAL,
                "readMono", Kind.READ, "writeFlux", Kind.WRITE, "permit", Kind.PERMIT);
        for (Map.Entry<String, Kind> method : kinds.entrySet()) {
            assertThat(operations.find(Kinds.class.getMethod(method.getKey()), Kinds.class).target().kind())
                    .as(method.getKey()).isEqualTo(method.getValue());
        }
    }

    private void assertBadAnnotation(Class<?> bean, List<String> attributes, String message) {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").withBean(bean).run(context -> {
            assertThat(context).hasFailed();
            LockedAnnotationException failure = StarterFixtures.findCause(context.getStartupFailure(),
                    LockedAnnotationException.class);
            assertThat(failure).as("a LockedAnnotationException in %s", context.getStartupFailure()).isNotNull();
            assertThat(failure.getMessage()).startsWith("@Locked on " + bean.getName() + ".run(): ")
                    .contains(message);
            assertThat(failure.attributes()).isEqualTo(attributes);
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

    static class BothResourceAndResources {
        @Locked(resource = "'a'", resources = {"'a'", "'b'"})
        public void run() {
        }
    }

    static class NoResource {
        @Locked(ttl = "10s")
        public void run() {
        }
    }

    static class ReadOfSeveral {
        @Locked(resources = {"'a'", "'b'"}, mode = LockMode.READ)
        public void run() {
        }
    }

    static class PermitsOfSeveral {
        @Locked(resources = {"'a'", "'b'"}, permits = 2)
        public void run() {
        }
    }

    static class PermitsOfARead {
        @Locked(resource = "'a'", mode = LockMode.READ, permits = 2)
        public void run() {
        }
    }

    static class NegativePermits {
        @Locked(resource = "'a'", permits = -1)
        public void run() {
        }
    }

    static class WriteOfSeveral {
        @Locked(resources = {"'a'", "'b'"}, mode = LockMode.WRITE)
        public void run() {
        }
    }

    static class BlankEntry {
        @Locked(resources = {"'a'", " "})
        public void run() {
        }
    }

    static class BadSpelEntry {
        @Locked(resources = {"'a'", "'b:' + "})
        public void run() {
        }
    }

    /** One method per kind of lock and invocation style, all valid. */
    static class Kinds {
        @Locked(resources = {"'a'", "'b'"}, mode = LockMode.EXCLUSIVE)
        public void several() {
        }

        @Locked(resource = "'a'", mode = LockMode.READ)
        public void read() {
        }

        @Locked(resource = "'a'", mode = LockMode.WRITE)
        public void write() {
        }

        @Locked(resource = "'a'", permits = 3)
        public void permit() {
        }

        @Locked(resource = "'a'")
        public void exclusive() {
        }

        @Locked(resources = "'a'")
        public void oneOfSeveral() {
        }

        @Locked(resources = {"'a'", "'b'"})
        public java.util.concurrent.CompletableFuture<String> severalStage() {
            return java.util.concurrent.CompletableFuture.completedFuture("x");
        }

        @Locked(resource = "'a'", mode = LockMode.READ)
        public reactor.core.publisher.Mono<String> readMono() {
            return reactor.core.publisher.Mono.just("x");
        }

        @Locked(resource = "'a'", mode = LockMode.WRITE)
        public reactor.core.publisher.Flux<String> writeFlux() {
            return reactor.core.publisher.Flux.just("x");
        }
    }

    static class Placeholder {
        @Locked(resource = "'x'", ttl = "${my.ttl}", maxWait = "${my.wait:0s}")
        public void run() {
        }
    }
}
