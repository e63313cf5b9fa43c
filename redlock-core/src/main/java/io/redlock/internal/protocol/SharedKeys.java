package io.redlock.internal.protocol;

import io.redlock.internal.node.Script;
import java.util.List;

/**
 * The keys of a lock many leases hold at once — a reader's ({@link ReaderKeys}) or a permit's ({@link PermitKeys}):
 * the resource's own {@link Keys} with a sorted set of holders beside them. Taking one differs by kind; committing,
 * extending and releasing one are the same scripts on the holders' set ({@code lua/shared.lua}), written here once.
 * Neither queues: readers respect the writers' queue without joining it, permits have none.
 */
sealed interface SharedKeys extends HeldKeys permits ReaderKeys, PermitKeys {

    /** The resource's keys. */
    Keys keys();

    /** The holders' sorted set: the readers, or the permit holders. */
    String holders();

    @Override
    default String lock() {
        return keys().lock();
    }

    @Override
    default Script commitScript() {
        return Scripts.COMMIT_SHARED;
    }

    @Override
    default String[] commitArgs(String value, long token, ScriptSettings settings) {
        return new Scripts.CommitShared(value, token, settings.clockFloor(), settings.counterTtl(), strictCommit())
                .argv();
    }

    /**
     * Whether the commit refuses a counter already at T (fence_commit's strict): only where leases that hold together
     * must not share a token — a semaphore's permits, whose slots share one counter.
     */
    default boolean strictCommit() {
        return false;
    }

    @Override
    default Script extendScript() {
        return Scripts.EXTEND_SHARED;
    }

    /** Lock key, holders. */
    @Override
    default String[] extend() {
        return new String[] {keys().lock(), holders()};
    }

    @Override
    default Script releaseScript() {
        return Scripts.RELEASE_SHARED;
    }

    /** Lock key, holders, queue. */
    @Override
    default String[] release() {
        return new String[] {keys().lock(), holders(), keys().waiters()};
    }

    @Override
    default List<String> releasedChannels() {
        return List.of(keys().released());
    }

    @Override
    default boolean queues() {
        return false;
    }
}
