package io.redlock.bench;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RedissonClient;

/** Redisson's RLock on one node: {@code tryLockAsync(0, 10 s, slot)} then {@code unlockAsync(slot)}. */
final class RedissonLockContestant implements Contestant {

    private final RedissonClient redisson;

    RedissonLockContestant(String uri) {
        this.redisson = RedissonClients.create(uri);
    }

    @Override
    public String name() {
        return "Redisson RLock (1 node)";
    }

    @Override
    public String id() {
        return "redisson";
    }

    @Override
    public int nodes() {
        return 1;
    }

    @Override
    public CompletionStage<Void> pair(String resource, int slot) {
        var lock = redisson.getLock(resource);
        return lock.tryLockAsync(0, 10, TimeUnit.SECONDS, slot).thenCompose(acquired -> acquired
                ? lock.unlockAsync(slot)
                : Contestant.notAcquired(resource));
    }

    @Override
    public void close() {
        RedissonClients.shutdown(redisson);
    }
}
