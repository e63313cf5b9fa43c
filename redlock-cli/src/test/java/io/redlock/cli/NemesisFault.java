package io.redlock.cli;

/**
 * One fault a randomized run injected: what, where, from when to when ({@link System#nanoTime()}).
 *
 * @param kind   what was done
 * @param target the node ({@code node-2}) or client process it was done to
 * @param start  when it began
 * @param end    when it was healed
 */
record NemesisFault(Kind kind, String target, long start, long end) {

    /**
     * The faults a run draws from. Those docs/GUARANTEES.md says the lock does not survive are {@link #unsafe}: a node
     * restarted empty at once (SPEC R9, row F4) and a node's clock jumping forward (row F6) can each hand a second
     * client a majority while the first still holds; the fencing tokens must still keep the storage right.
     */
    enum Kind {
        /** SIGSTOP of a node, SIGCONT after a while. */
        NODE_PAUSED(false),
        /** A node killed and restarted empty once every lease it knew has expired (SPEC R9). */
        NODE_RESTARTED_LATE(false),
        /** A node killed and restarted empty at once. */
        NODE_RESTARTED_AT_ONCE(true),
        /** A node's clock jumped forward past every lease, and back after a while. */
        CLOCK_JUMP(true),
        /** A node answering late (through its proxy, both ways). */
        NODE_SLOW(false),
        /** A node cut off (its proxy forwards nothing, holding the bytes until it heals). */
        PARTITION(false),
        /** SIGSTOP of a {@code redlock run} process holding or taking the lock, SIGCONT after a while. */
        CLIENT_PAUSED(false);

        final boolean unsafe;

        Kind(boolean unsafe) {
            this.unsafe = unsafe;
        }

        /** Whether it happens to one of the lock nodes (at most a minority of them are faulted at once). */
        boolean onNode() {
            return this != CLIENT_PAUSED;
        }
    }
}
