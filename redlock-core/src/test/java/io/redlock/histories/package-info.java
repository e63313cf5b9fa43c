/**
 * Generated histories: property-based, stateful tests that drive each lock API with sequences of calls and
 * faults nobody wrote by hand, and check every real result against a reference model of what the call may return.
 * Each property states its guarantees in its javadoc; a failure prints the seed and the shrunk sequence, and the
 * seed replays it.
 */
package io.redlock.histories;
