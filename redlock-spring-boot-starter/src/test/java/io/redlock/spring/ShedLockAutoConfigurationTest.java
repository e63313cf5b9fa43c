package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.shedlock.RedlockLockProvider;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;

/** ShedLock's lock provider comes with the Redlock bean, and backs off for the application's own or without ShedLock. */
class ShedLockAutoConfigurationTest {

    @Test
    void aRedlockBeanGivesShedLockItsProvider() {
        runner().withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .run(context -> assertThat(context).getBean(LockProvider.class).isInstanceOf(RedlockLockProvider.class));
    }

    @Test
    void theApplicationsOwnProviderWins() {
        LockProvider own = configuration -> Optional.empty();
        runner().withPropertyValues("redlock.nodes=redis://127.0.0.1:1").withBean(LockProvider.class, () -> own)
                .run(context -> assertThat(context).getBean(LockProvider.class).isSameAs(own));
    }

    @Test
    void noProviderWithoutShedLockOrWithoutARedlock() {
        runner().withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withClassLoader(new FilteredClassLoader(LockProvider.class))
                .run(context -> assertThat(context).doesNotHaveBean(RedlockLockProvider.class));
        runner().run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RedlockLockProvider.class));
    }
}
