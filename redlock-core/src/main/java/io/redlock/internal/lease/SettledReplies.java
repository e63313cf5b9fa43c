package io.redlock.internal.lease;

import io.redlock.internal.release.NodeDelete;
import java.util.AbstractList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A lease's acquire replies once every one is in, kept as {@link NodeDelete} reads them: a bit per node, whether the
 * node may hold our value (a delete is sent there) or not. Two shared completed futures stand for the replies, instead
 * of a future, a reply and a wrapper per node for as long as the lease lives.
 */
final class SettledReplies extends AbstractList<CompletableFuture<?>> {

    private static final CompletableFuture<?> MAY_HOLD = CompletableFuture.completedFuture(1L);
    private static final CompletableFuture<?> NOT_HELD = CompletableFuture.completedFuture(0L);

    private final long mayHold;
    private final int size;

    private SettledReplies(long mayHold, int size) {
        this.mayHold = mayHold;
        this.size = size;
    }

    /** {@code replies} in this form if every one is in (and there are at most 64), else {@code replies} itself. */
    static List<? extends CompletableFuture<?>> of(List<? extends CompletableFuture<?>> replies) {
        if (replies instanceof SettledReplies || replies.size() > Long.SIZE) {
            return replies;
        }
        long bits = 0;
        for (int i = 0; i < replies.size(); i++) {
            CompletableFuture<?> reply = replies.get(i);
            if (!reply.isDone()) {
                return replies;
            }
            if (reply.handle(NodeDelete::mayHold).join()) {
                bits |= 1L << i;
            }
        }
        return new SettledReplies(bits, replies.size());
    }

    @Override
    public CompletableFuture<?> get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return (mayHold & (1L << index)) != 0 ? MAY_HOLD : NOT_HELD;
    }

    @Override
    public int size() {
        return size;
    }
}
