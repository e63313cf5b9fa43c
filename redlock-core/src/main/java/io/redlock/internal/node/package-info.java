/**
 * The nodes as the layers above see them; not exported. {@code NodeSet} holds the Lettuce client and one
 * {@code NodeClient} per node (one multiplexed connection each, {@code BatchedConnection}, written by the
 * {@code Flusher}), the per-node timeout, and the one fan-out every operation uses ({@code send}), tallied by a
 * {@code Round} with {@code QuorumTally} into a {@code RoundResult}. Script calls queued for one node in one turn go as
 * one call of the {@code ScriptBatch}'s script ({@code ScriptRuns}, {@code ScriptCommand}, {@code Resp}: the wire
 * format, encoded straight into Netty's buffer; {@code lua/batch.lua} reads what {@code ScriptCommand} writes). The
 * node set is given the scripts it runs; it knows nothing of locks. {@code Failures} turns what went wrong into
 * {@code io.redlock.NodeFailure}s, {@code Redaction} keeps passwords out of every name and message,
 * {@code NodeUris} parses the node strings.
 */
package io.redlock.internal.node;
