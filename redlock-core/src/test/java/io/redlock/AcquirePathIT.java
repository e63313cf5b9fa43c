package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The path from the API to the wire is short: the classes of the library on the caller's stack when Lettuce takes a
 * {@code tryAcquire}'s command, counted from {@code Redlock} down (docs/ARCHITECTURE.md, "The path of one
 * acquisition").
 */
@WithRedisNodes(3)
class AcquirePathIT {

    /** The most classes of ours one acquisition passes through before its command is handed to Lettuce. */
    private static final int MOST = 8;

    @Test
    void aTryAcquireReachesLettuceThroughAtMostEightOfOurClasses(RedisNodes nodes) throws Exception {
        assertThat(pathOf(nodes, redlockOn(nodes))).hasSizeBetween(2, MOST).first().isEqualTo(Redlock.class.getName());
    }

    @Test
    void withoutFencingTheSetReachesLettuceThroughAtMostEightOfOurClassesToo(RedisNodes nodes) throws Exception {
        assertThat(pathOf(nodes, redlockOn(nodes).fencing(false))).hasSizeBetween(2, MOST)
                .contains("io.redlock.internal.node.BatchedConnection");
    }

    /**
     * Our classes, outermost first, on the stack of the first command a {@code tryAcquire} dispatched on the caller's
     * thread, once the client is connected.
     */
    private static List<String> pathOf(RedisNodes nodes, RedlockBuilder builder) throws Exception {
        StackAtDispatch tracing = new StackAtDispatch();
        ClientResources resources = DefaultClientResources.builder().tracing(tracing).build();
        try (Redlock redlock = builder.clientResources(resources).build()) {
            // connected: the first commands wait for the connections and leave from the I/O thread that made them
            redlock.tryAcquire("connect", Duration.ofSeconds(5)).orElseThrow().release();
            tracing.stacks().clear();
            // called on a thread of an event loop that carries no replies, a command is written at once on the
            // caller's thread (on a plain thread, a task on the I/O loop writes it): the whole path on one stack
            EventLoop caller = new DefaultEventLoop();
            try {
                caller.submit(() -> redlock.tryAcquireAsync("path", Duration.ofSeconds(5))).get(10, TimeUnit.SECONDS)
                        .toCompletableFuture().get(10, TimeUnit.SECONDS).orElseThrow().release();
            } finally {
                caller.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            }
        } finally {
            resources.shutdown(0, 5, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
        }
        List<StackWalker.StackFrame> stack = tracing.stacks().stream()
                .filter(frames -> frames.stream().anyMatch(AcquirePathIT::isTryAcquire)).findFirst().orElseThrow();
        Set<String> ours = new LinkedHashSet<>();
        // outermost first, from Redlock.tryAcquireAsync down to the first frame of Lettuce
        for (int i = stack.size() - 1; i >= 0 && !stack.get(i).getClassName().startsWith("io.lettuce."); i--) {
            StackWalker.StackFrame frame = stack.get(i);
            if (!ours.isEmpty() || isTryAcquire(frame)) {
                String name = topLevel(frame.getClassName());
                if (name.startsWith("io.redlock.")) {
                    ours.add(name);
                }
            }
        }
        return List.copyOf(ours);
    }

    private static boolean isTryAcquire(StackWalker.StackFrame frame) {
        return frame.getClassName().equals(Redlock.class.getName()) && frame.getMethodName().equals("tryAcquireAsync");
    }

    /** {@code a.B} for {@code a.B$C} and {@code a.B$$Lambda$1}. */
    private static String topLevel(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }
}
