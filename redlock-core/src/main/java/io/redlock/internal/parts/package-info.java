/**
 * What the parts of one client share; not exported. {@code Parts} is the bundle, built once and handed to each part
 * that needs it: the configuration, the {@code Injected} tests inject (the scheduler, the random source, the
 * {@code FaultHooks}), the closed state ({@code Lifecycle}), {@code Events} (the observers, node
 * state logs; {@code Listeners} calls a lease listener safely), the node set, the timer wheel, the script settings, the
 * release layer's parts, {@code QuorumHealth} (the result of a lost round) and {@code LockValues}. Beside it the
 * rules every layer above applies: {@code ConfigCheck} (settings and call arguments) and {@code Validity} (the
 * validity arithmetic of SPEC R4).
 */
package io.redlock.internal.parts;
