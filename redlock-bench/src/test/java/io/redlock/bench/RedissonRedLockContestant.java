package io.redlock.bench;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.redisson.RedissonRedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson's Redlock over N nodes: one Redisson client per node, {@code new RedissonRedLock(lock1..lockN)}, then
 * {@code tryLockAsync(0, 10 s, slot)} and {@code unlockAsync(slot)}. Redisson deprecates this class (it now points
 * users to RLock with replica synchronisation), but it is still its Redlock over independent masters.
 */
final class RedissonRedLockContestant implements Contestant {

    private final List<RedissonClient> clients;

    RedissonRedLockContestant(List<String> uris) {
        this.clients = uris.stream().map(RedissonClients::create).toList();
    }

    @Override
    public String name() {
        return "Redisson RedLock (" + clients.size() + " nodes)";
    }

    @Override
    public String id() {
        return "redisson-redlock";
    }

    @Override
    public int nodes() {
        return clients.size();
    }

    @Override
    @SuppressWarnings("deprecation") // RedissonRedLock is the contestant
    public CompletionStage<Void> pair(String resource, int slot) {
        RedissonRedLock lock = new RedissonRedLock(
                clients.stream().map(client -> client.getLock(resource)).toArray(RLock[]::new));
        return lock.tryLockAsync(0, 10, TimeUnit.SECONDS, slot).thenCompose(acquired -> acquired
                ? lock.unlockAsync(slot)
                : Contestant.notAcquired(resource));
    }

    @Override
    public void close() {
        clients.forEach(RedissonClients::shutdown);
    }
}
