/**
 * Read-only reports over every node; not exported. {@code Reports} is {@code inspect()}, {@code status()} and
 * {@code ping()}, each node awaited for a bounded time and a node that does not answer reported, never thrown:
 * {@code NodeInspector} reads a node's settings, {@code NodeStatusReader} what it holds for a resource,
 * {@code NodePing} its round trip.
 */
package io.redlock.internal.report;
