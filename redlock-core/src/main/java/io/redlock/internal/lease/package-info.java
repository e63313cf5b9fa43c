/**
 * Leases; not exported. {@code Leases} makes the leases acquisitions win and is what a lease asks of the client
 * ({@code LeaseOps}); {@code RedlockLease} is the {@code Lease} handed out (where its value may be on the nodes:
 * {@code Footprint}, {@code SettledReplies}; its loss listeners: {@code LossListeners}), {@code RedlockMultiLease} the
 * one of several resources. {@code Extension} is the compare-and-PEXPIRE round (SPEC R8); a lease's {@code Watchdog}
 * drives it on the timer wheel, paced by {@code ExtensionPacing}, and declares a loss ({@code LossNotice}: the
 * holder's worker interrupted once the listeners were told); {@code KeptAlive} holds the leases kept alive.
 * {@code ForeignLeases} extends and releases a lease acquired elsewhere, known by its value.
 */
package io.redlock.internal.lease;
