package io.redlock.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process TCP proxy on 127.0.0.1 between clients and one Redis node, for injecting network faults in tests:
 * latency ({@link #delay(Duration)}), lost replies ({@link #dropReplies(boolean)}), a partition
 * ({@link #blackhole(boolean)}) and aborted connections ({@link #reset()}).
 *
 * <p>Every accepted client connection gets its own connection to the target and exactly four daemon threads: per
 * direction, a reader that stamps each chunk it reads with its due time (read time plus the current delay) and
 * queues it, and a writer that takes the chunks in order, sleeps until each is due and writes it. So the order of
 * the bytes in each direction is kept, and a fault applies to the bytes read after it was set. Replies read while
 * dropping replies are discarded, not buffered; the same holds for queued replies that fall due while the fault is on.
 * A blackhole, like a real partition, loses nothing: the writers hold every byte until it heals (TCP would retransmit
 * them), and the readers stop reading once {@value #QUEUED_CHUNKS} chunks wait, so the senders feel back-pressure.
 * An end of stream is always passed on (as a half-close), so connections that either side closes do not leak. Thread
 * names start with {@code tcp-proxy-<port>-}; {@link #close()} ends them all. Thread-safe.
 */
public final class TcpProxy implements AutoCloseable {

    /** Chunks that may wait in one direction of one connection before its reader blocks. */
    static final int QUEUED_CHUNKS = 256;

    private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);
    private static final String HOST = "127.0.0.1";
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final int port;
    private final ProxyFaults faults = new ProxyFaults();
    private final ProxyThreads threads;
    private final Set<ProxyConnection> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong connectionIds = new AtomicLong();

    private boolean closed; // guarded by this

    private TcpProxy(String targetHost, int targetPort, ServerSocket listener) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = listener;
        this.port = listener.getLocalPort();
        this.threads = new ProxyThreads(port, address());
    }

    /** Starts a proxy to {@code targetHost:targetPort} that listens on 127.0.0.1, on a free port. */
    public static TcpProxy start(String targetHost, int targetPort) {
        Objects.requireNonNull(targetHost, "targetHost");
        if (targetPort < 1 || targetPort > 65535) {
            throw new IllegalArgumentException("targetPort must be in [1, 65535], was " + targetPort);
        }
        ServerSocket listener = null;
        try {
            listener = new ServerSocket();
            listener.bind(new InetSocketAddress(InetAddress.getByName(HOST), 0));
        } catch (IOException e) {
            closeQuietly(listener);
            throw new IllegalStateException("cannot listen on " + HOST + ": " + e.getMessage(), e);
        }
        TcpProxy proxy = new TcpProxy(targetHost, targetPort, listener);
        synchronized (proxy) {
            proxy.threads.spawn("accept", proxy::acceptLoop);
        }
        log.debug("tcp proxy {} -> {}:{} started", proxy.address(), targetHost, targetPort);
        return proxy;
    }

    /** The port this proxy listens on. */
    public int port() {
        return port;
    }

    /** {@code 127.0.0.1:port} of this proxy. */
    public String address() {
        return HOST + ":" + port;
    }

    /** {@code redis://127.0.0.1:port} of this proxy, for a Redis client. */
    public String uri() {
        return "redis://" + address();
    }

    /**
     * Adds this latency to each direction for every byte read from now on; {@code Duration.ZERO} adds none. Bytes
     * already queued keep their due time, and the order of bytes is kept either way.
     */
    public TcpProxy delay(Duration eachWay) {
        faults.delay(eachWay);
        return this;
    }

    /**
     * Discards every byte from the server to the client while {@code on}, but still forwards the client's bytes, so
     * commands reach Redis and are applied while their replies are lost.
     */
    public TcpProxy dropReplies(boolean on) {
        faults.dropReplies(on);
        return this;
    }

    /**
     * Forwards nothing in either direction while {@code on} and keeps the connections open, like a network partition:
     * the bytes sent meanwhile are held, not lost, and delivered in order once it heals (as TCP retransmits them). A
     * proxy that discarded them would corrupt the byte stream, which no network does: every later reply would answer
     * the wrong command.
     */
    public TcpProxy blackhole(boolean on) {
        faults.blackhole(on);
        return this;
    }

    /**
     * Aborts every open connection now with a TCP RST on both sides ({@code setSoLinger(true, 0)}, then close);
     * later connections are accepted normally.
     */
    public TcpProxy reset() {
        List<ProxyConnection> snapshot;
        synchronized (this) {
            snapshot = List.copyOf(open);
        }
        for (ProxyConnection connection : snapshot) {
            connection.close(true);
        }
        return this;
    }

    /** Turns every fault off (no delay, no dropped replies, no blackhole); open connections keep working. */
    public TcpProxy heal() {
        faults.heal();
        return this;
    }

    /** The number of client connections currently open through this proxy. */
    public int connections() {
        return open.size();
    }

    /**
     * Stops accepting, closes every connection and waits (up to 5 s) until every thread of this proxy has ended;
     * idempotent.
     */
    @Override
    public void close() {
        List<ProxyConnection> snapshot;
        synchronized (this) {
            if (!closed) {
                closed = true;
                log.debug("tcp proxy {} closing", address());
            }
            snapshot = List.copyOf(open);
        }
        // no thread is spawned after closed is set, so the threads awaited below are all there are
        closeQuietly(listener);
        for (ProxyConnection connection : snapshot) {
            connection.close(false);
        }
        threads.awaitAll(STOP_TIMEOUT);
    }

    @Override
    public String toString() {
        return "TcpProxy[" + address() + " -> " + targetHost + ":" + targetPort + "]";
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
                log.debug("tcp proxy {}: accept failed: {}", address(), e.toString());
                if (!pause()) {
                    return;
                }
                continue;
            }
            Socket server = connectTarget(client);
            if (server != null) {
                register(client, server);
            }
        }
    }

    /** A connection to the target, or null (and the client socket closed) if that fails. */
    private Socket connectTarget(Socket client) {
        Socket server = new Socket();
        try {
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            server.connect(new InetSocketAddress(targetHost, targetPort), CONNECT_TIMEOUT_MILLIS);
            return server;
        } catch (IOException e) {
            log.debug("tcp proxy {}: cannot connect to {}:{}: {}", address(), targetHost, targetPort, e.toString());
            closeQuietly(server);
            closeQuietly(client);
            return null;
        }
    }

    /** Starts the threads of a new connection, unless the proxy is closed; they are spawned under this lock only. */
    private synchronized void register(Socket client, Socket server) {
        if (closed) {
            closeQuietly(client);
            closeQuietly(server);
            return;
        }
        ProxyConnection connection = new ProxyConnection(connectionIds.incrementAndGet(), client, server, faults,
                threads, open::remove);
        connection.start();
        open.add(connection);
        if (connection.isClosing()) {
            open.remove(connection); // it ended before it was added
        }
    }

    private static boolean pause() {
        try {
            Thread.sleep(10);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
