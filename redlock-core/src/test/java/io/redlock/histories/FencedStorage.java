package io.redlock.histories;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedRedis;
import io.redlock.fencing.FencedResult;

/**
 * One fenced value in the storage and what the model says of it: a write is accepted if and only if its token is
 * above every token accepted before, or equal to the highest and from the same lease (FencedRedis's rule).
 */
final class FencedStorage {

    private final FencedRedis fenced;
    private final String key;
    private long highest;
    private String highestLease;
    private int writes;

    FencedStorage(FencedRedis fenced, String key) {
        this.fenced = fenced;
        this.key = key;
    }

    /** Writes with {@code lease}'s token and checks the storage's answer against the model. */
    void write(Lease lease, String who) {
        write(Fence.of(lease), who);
    }

    /** Writes with {@code fence} and checks the storage's answer against the model. */
    void write(Fence fence, String who) {
        boolean expected = fence.token() > highest || fence.token() == highest && fence.owner().equals(highestLease);
        FencedResult<Void> result = fenced.set(key, who + "-" + ++writes, fence);
        assertThat(result.accepted()).as("%s's write with token %d (highest accepted %d)", who, fence.token(),
                highest).isEqualTo(expected);
        if (expected) {
            highest = fence.token();
            highestLease = fence.owner();
        }
    }
}
