/**
 * Freeing what a client took on the nodes; not exported. {@code Releases} is compare-and-delete of a value on every
 * node (a holder's release, a lost attempt's clean-up, a release by value), each node's {@code NodeDelete} sent
 * behind the write it undoes and repeated until it lands; {@code QueueUpkeep} takes a waiter out of the queues;
 * {@code ReleaseNotifier} tells waiting acquisitions of releases over pub/sub; {@code PendingWork} is the work closing
 * lets finish.
 */
package io.redlock.internal.release;
