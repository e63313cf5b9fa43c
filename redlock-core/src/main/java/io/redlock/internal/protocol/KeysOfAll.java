package io.redlock.internal.protocol;

import io.redlock.internal.node.Script;
import java.util.List;
import java.util.function.Function;

/**
 * The keys of a lock of several resources taken at once ({@code Scripts.ACQUIRE_ALL}): each resource's own
 * {@link Keys} (its lock key is its key, so a plain lock of any one of them, ours or another Redlock client's,
 * conflicts with it), in the caller's order. The lock keys share one value and one token.
 */
public record KeysOfAll(List<Keys> members) implements HeldKeys {

    public KeysOfAll {
        members = List.copyOf(members);
    }

    @Override
    public String lock() {
        return members.get(0).lock();
    }

    @Override
    public Script acquireScript() {
        return Scripts.ACQUIRE_ALL;
    }

    @Override
    public Script commitScript() {
        return Scripts.COMMIT_ALL;
    }

    /** Each lock key, then its counter. */
    @Override
    public String[] acquire() {
        return eachLockThen(Keys::fence);
    }

    @Override
    public String[] extend() {
        return members.stream().map(Keys::lock).toArray(String[]::new);
    }

    @Override
    public String[] release() {
        return eachLockThen(Keys::waiters);
    }

    /** Each resource's lock key, then {@code next} of its keys. */
    private String[] eachLockThen(Function<Keys, String> next) {
        String[] keys = new String[2 * members.size()];
        for (int i = 0; i < members.size(); i++) {
            keys[2 * i] = members.get(i).lock();
            keys[2 * i + 1] = next.apply(members.get(i));
        }
        return keys;
    }

    @Override
    public List<String> releasedChannels() {
        return List.of(members.stream().map(Keys::released).toArray(String[]::new));
    }

    @Override
    public boolean queues() {
        return false;
    }
}
