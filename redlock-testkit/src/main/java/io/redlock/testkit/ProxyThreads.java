package io.redlock.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The daemon threads of one {@link TcpProxy}, named {@code tcp-proxy-<port>-...}: started, counted, waited for. */
final class ProxyThreads {

    private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);

    private final String prefix;
    private final String proxy;
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    /** The threads of the proxy listening on {@code port} (also its name in log messages: {@code proxy}). */
    ProxyThreads(int port, String proxy) {
        this.prefix = "tcp-proxy-" + port + "-";
        this.proxy = proxy;
    }

    /** Starts a daemon thread named with this proxy's prefix and {@code name}; a failure in it is logged. */
    void spawn(String name, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (RuntimeException | Error e) {
                log.warn("tcp proxy {}: thread {} failed", proxy, Thread.currentThread().getName(), e);
                throw e;
            } finally {
                threads.remove(Thread.currentThread());
            }
        }, prefix + name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    /**
     * Waits up to {@code timeout} in all until every thread started so far (but the calling one) has ended; logs
     * those still running. Returns early, interrupted, if the calling thread is interrupted.
     */
    void awaitAll(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : List.copyOf(threads)) {
            if (thread == Thread.currentThread()) {
                continue;
            }
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (thread.isAlive()) {
                log.warn("tcp proxy {}: thread {} did not stop within {}", proxy, thread.getName(), timeout);
            }
        }
    }
}
