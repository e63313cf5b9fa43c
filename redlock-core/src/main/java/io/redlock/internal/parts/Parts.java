package io.redlock.internal.parts;

import io.redlock.RedlockConfig;
import io.redlock.Ticker;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.ScriptSettings;
import io.redlock.internal.protocol.Scripts;
import io.redlock.internal.release.PendingWork;
import io.redlock.internal.release.QueueUpkeep;
import io.redlock.internal.release.ReleaseNotifier;
import io.redlock.internal.release.Releases;
import io.redlock.internal.time.TimerWheel;
import java.util.random.RandomGenerator;

/**
 * What the parts of one client share, built once ({@link #of}) and handed to each part that needs some of it: the
 * configuration and what tests inject, whether the client is closed, the events told to observers and listeners,
 * the nodes (connections, the fan-out, the ticker, the scheduler), the watchdogs' timer wheel, the configuration as
 * the scripts take it, the work closing lets finish, compare-and-delete on every node, leaving waiter queues, release
 * notices, the quorum's health as acquisitions report it, and lease values.
 *
 * @param notifier the pub/sub side of wake-on-release; it opens its connections on first use
 */
public record Parts(RedlockConfig config, Injected injected, Lifecycle lifecycle, Events events, NodeSet nodes, TimerWheel timers,
        ScriptSettings scriptSettings, PendingWork pending, Releases releases, QueueUpkeep queue,
        ReleaseNotifier notifier, QuorumHealth health, LockValues values) {

    /** The resource of the warm-up: a name of the library's own, never written. */
    static final String WARM_UP_RESOURCE = "redlock:warm-up";

    /** The parts of a client of {@code config}: its nodes are connected and warmed up, its scheduler started. */
    public static Parts of(RedlockConfig config, Injected injected) {
        Events events = new Events();
        NodeSet nodes = new NodeSet(config, Scripts.BATCH, injected.newScheduler(), events::nodeFailed);
        warmUp(nodes, config);
        PendingWork pending = new PendingWork();
        return new Parts(config, injected, new Lifecycle(), events, nodes,
                new TimerWheel(nodes.scheduler(), nodes.ticker()), ScriptSettings.of(config), pending,
                new Releases(nodes, pending, config.fencing(), config.hashTaggedKeys()), new QueueUpkeep(nodes, pending),
                new ReleaseNotifier(nodes.client(), config.nodes(), nodes.redaction()),
                new QuorumHealth(config.nodes().size()), new LockValues());
    }

    /**
     * A release nobody can match (no lease value is empty) of a resource of the library's own, on every node: the
     * path of a lock operation run once before the first acquisition, so that the first round of a fresh process is
     * not the one that loads it. It writes nothing and announces nothing (no one waits there).
     */
    private static void warmUp(NodeSet nodes, RedlockConfig config) {
        Keys keys = Keys.of(config, WARM_UP_RESOURCE);
        nodes.warmUp(keys.releaseScript(), keys.release(),
                new Scripts.Release("", "", true, true, keys.releasedChannels()).argv());
    }

    /** The injected monotonic clock every deadline and validity is read on. */
    public Ticker ticker() {
        return nodes.ticker();
    }

    /** The random source of retry delays and extension spread, for the calling thread. */
    public RandomGenerator random() {
        return injected.random();
    }

    public FaultHooks faultHooks() {
        return injected.faultHooks();
    }
}
