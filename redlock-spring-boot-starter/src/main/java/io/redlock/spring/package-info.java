/**
 * Spring Boot auto-configuration for redlock-java: a {@code Redlock} bean from {@code redlock.*} properties
 * ({@code RedlockProperties}, mapped to the builder by {@code RedlockPropertiesMapper}; bad values fail startup
 * through {@code RedlockPropertiesFailureAnalyzer}), {@code RedlockTemplate}, the {@code @Locked} annotation
 * ({@code LockedAdvisor}, {@code LockedMethodInterceptor}), Micrometer meters and observations (the observation
 * conventions are in {@code io.redlock.spring.observation}) and a health indicator.
 *
 * <p>Called by Spring while the application context starts and stops; {@code @Locked} methods run under the lock on
 * the caller's thread ({@code withLock}), and {@code Leases.current()} is the lease of that thread. Meters and
 * listeners are updated from the library's threads.
 */
package io.redlock.spring;
