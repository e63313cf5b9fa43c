package io.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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

    private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);
    private static final String HOST = "127.0.0.1";
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int CHUNK_BYTES = 16 * 1024;
    private static final int QUEUED_CHUNKS = 256;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final int port;
    private final String threadPrefix;
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicLong connectionIds = new AtomicLong();

    private volatile long delayNanos;
    private volatile boolean dropReplies;
    private volatile boolean blackhole;
    private boolean closed; // guarded by this

    private TcpProxy(String targetHost, int targetPort, ServerSocket listener) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = listener;
        this.port = listener.getLocalPort();
        this.threadPrefix = "tcp-proxy-" + port + "-";
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
            proxy.spawn("accept", proxy::acceptLoop);
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
        Objects.requireNonNull(eachWay, "eachWay");
        if (eachWay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + eachWay);
        }
        delayNanos = eachWay.toNanos();
        return this;
    }

    /**
     * Discards every byte from the server to the client while {@code on}, but still forwards the client's bytes, so
     * commands reach Redis and are applied while their replies are lost.
     */
    public TcpProxy dropReplies(boolean on) {
        dropReplies = on;
        return this;
    }

    /**
     * Forwards nothing in either direction while {@code on} and keeps the connections open, like a network partition:
     * the bytes sent meanwhile are held, not lost, and delivered in order once it heals (as TCP retransmits them). A
     * proxy that discarded them would corrupt the byte stream, which no network does: every later reply would answer
     * the wrong command.
     */
    public TcpProxy blackhole(boolean on) {
        blackhole = on;
        return this;
    }

    /**
     * Aborts every open connection now with a TCP RST on both sides ({@code setSoLinger(true, 0)}, then close);
     * later connections are accepted normally.
     */
    public TcpProxy reset() {
        List<Connection> snapshot;
        synchronized (this) {
            snapshot = List.copyOf(open);
        }
        for (Connection connection : snapshot) {
            connection.close(true);
        }
        return this;
    }

    /** Turns every fault off (no delay, no dropped replies, no blackhole); open connections keep working. */
    public TcpProxy heal() {
        delayNanos = 0;
        dropReplies = false;
        blackhole = false;
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
        List<Connection> snapshot;
        synchronized (this) {
            if (!closed) {
                closed = true;
                log.debug("tcp proxy {} closing", address());
            }
            snapshot = List.copyOf(open);
        }
        // no thread is spawned after closed is set, so the thread set below is complete
        closeQuietly(listener);
        for (Connection connection : snapshot) {
            connection.close(false);
        }
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
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
                log.warn("tcp proxy {}: thread {} did not stop within {}", address(), thread.getName(), STOP_TIMEOUT);
            }
        }
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

    private synchronized void register(Socket client, Socket server) {
        if (closed) {
            closeQuietly(client);
            closeQuietly(server);
            return;
        }
        Connection connection = new Connection(connectionIds.incrementAndGet(), client, server);
        connection.start();
        open.add(connection);
        if (connection.closing.get()) {
            open.remove(connection); // it ended before it was added
        }
    }

    /** Starts a daemon thread of this proxy; callers hold the lock and have checked that the proxy is open. */
    private void spawn(String name, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (RuntimeException | Error e) {
                log.warn("tcp proxy {}: thread {} failed", address(), Thread.currentThread().getName(), e);
                throw e;
            } finally {
                threads.remove(Thread.currentThread());
            }
        }, threadPrefix + name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    /** Whether bytes going this way are discarded right now. */
    private boolean discarding(boolean replies) {
        return replies && dropReplies;
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

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            // closing anyway
        }
    }

    /** One chunk of bytes (or, with null data, the end of the stream) and the System.nanoTime() it is due at. */
    private record Chunk(byte[] data, long due) {
    }

    /** One client connection, its connection to the target and its four threads. */
    private final class Connection {
        final Socket client;
        final Socket server;
        final AtomicBoolean closing = new AtomicBoolean();
        private final long id;
        private final AtomicInteger finishedDirections = new AtomicInteger();
        private final Direction toServer;
        private final Direction toClient;

        Connection(long id, Socket client, Socket server) {
            this.id = id;
            this.client = client;
            this.server = server;
            this.toServer = new Direction("c2s", client, server, false);
            this.toClient = new Direction("s2c", server, client, true);
        }

        void start() {
            toServer.start();
            toClient.start();
        }

        /** Closes both sockets (with a RST if {@code abort}) and wakes this connection's threads so they end. */
        void close(boolean abort) {
            if (!closing.compareAndSet(false, true)) {
                return;
            }
            open.remove(this);
            if (abort) {
                lingerZero(client);
                lingerZero(server);
            }
            closeQuietly(client);
            closeQuietly(server);
            toServer.wake();
            toClient.wake();
        }

        /** One direction has passed on its end of stream; when both have, the connection is done. */
        void finished() {
            if (finishedDirections.incrementAndGet() == 2) {
                close(false);
            }
        }

        private void lingerZero(Socket socket) {
            try {
                socket.setSoLinger(true, 0);
            } catch (IOException e) {
                // already closed
            }
        }

        /** Bytes one way: a reader thread that stamps and queues them, a writer thread that delivers them. */
        private final class Direction {
            private final String name;
            private final Socket from;
            private final Socket to;
            private final boolean replies;
            private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>(QUEUED_CHUNKS);
            private volatile Thread reader;
            private volatile Thread writer;

            Direction(String name, Socket from, Socket to, boolean replies) {
                this.name = name;
                this.from = from;
                this.to = to;
                this.replies = replies;
            }

            void start() {
                String prefix = id + "-" + name + "-";
                spawn(prefix + "read", this::readLoop);
                spawn(prefix + "write", this::writeLoop);
            }

            void wake() {
                Thread r = reader;
                Thread w = writer;
                if (r != null) {
                    r.interrupt();
                }
                if (w != null) {
                    w.interrupt();
                }
            }

            private void readLoop() {
                reader = Thread.currentThread();
                byte[] buffer = new byte[CHUNK_BYTES];
                try {
                    InputStream in = from.getInputStream();
                    while (!closing.get()) {
                        int n = in.read(buffer);
                        long due = System.nanoTime() + delayNanos;
                        if (n < 0) {
                            queue.put(new Chunk(null, due));
                            return;
                        }
                        if (n > 0 && !discarding(replies)) {
                            queue.put(new Chunk(Arrays.copyOf(buffer, n), due));
                        }
                    }
                } catch (IOException e) {
                    close(true); // a no-op if the connection is closing already; otherwise pass the error on
                } catch (InterruptedException e) {
                    // the connection is closing
                }
            }

            private void writeLoop() {
                writer = Thread.currentThread();
                try {
                    OutputStream out = to.getOutputStream();
                    // closing is checked first: close() may have woken this thread before it was running
                    while (!closing.get()) {
                        Chunk chunk = queue.take();
                        long wait = chunk.due() - System.nanoTime();
                        if (wait > 0) {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        }
                        while (blackhole && !closing.get()) {
                            TimeUnit.MILLISECONDS.sleep(1); // held until the partition heals or the proxy closes
                        }
                        if (chunk.data() == null) {
                            shutdownOutput();
                            finished();
                            return;
                        }
                        if (!discarding(replies)) {
                            out.write(chunk.data());
                            out.flush();
                        }
                    }
                } catch (IOException e) {
                    close(true);
                } catch (InterruptedException e) {
                    // the connection is closing
                }
            }

            private void shutdownOutput() {
                try {
                    to.shutdownOutput();
                } catch (IOException e) {
                    // the peer is gone already; finished() closes the rest
                }
            }
        }
    }
}
