package io.redlock.spring;

import io.redlock.Redlock;
import io.redlock.shedlock.RedlockLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * ShedLock's {@link LockProvider} over the Redlock bean ({@link RedlockLockProvider}, resource = the lock's name) when
 * redlock-shedlock is on the class path and the application defines no lock provider of its own: then
 * {@code @EnableSchedulerLock} and {@code @SchedulerLock} are all a scheduled job needs.
 */
@AutoConfiguration(after = RedlockAutoConfiguration.class)
@ConditionalOnClass({LockProvider.class, RedlockLockProvider.class})
public class RedlockShedLockAutoConfiguration {

    @Bean
    @ConditionalOnBean(Redlock.class)
    @ConditionalOnMissingBean(LockProvider.class)
    public RedlockLockProvider redlockLockProvider(Redlock redlock) {
        return new RedlockLockProvider(redlock);
    }
}
