package io.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One client connection of a {@link TcpProxy}, its connection to the target and its four threads: per direction, a
 * reader that stamps and queues what it reads and a writer that delivers it when due, under the proxy's current
 * {@link ProxyFaults} (see {@link TcpProxy} for what each fault does to the bytes).
 */
final class ProxyConnection {

    private static final int CHUNK_BYTES = 16 * 1024;

    private final long id;
    private final Socket client;
    private final Socket server;
    private final ProxyFaults faults;
    private final ProxyThreads threads;
    private final Consumer<ProxyConnection> onClose;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicInteger finishedDirections = new AtomicInteger();
    private final Direction toServer;
    private final Direction toClient;

    /** Connection {@code id} between {@code client} and {@code server}; {@code onClose} is told once when it closes. */
    ProxyConnection(long id, Socket client, Socket server, ProxyFaults faults, ProxyThreads threads,
            Consumer<ProxyConnection> onClose) {
        this.id = id;
        this.client = client;
        this.server = server;
        this.faults = faults;
        this.threads = threads;
        this.onClose = onClose;
        this.toServer = new Direction("c2s", client, server, false);
        this.toClient = new Direction("s2c", server, client, true);
    }

    void start() {
        toServer.start();
        toClient.start();
    }

    boolean isClosing() {
        return closing.get();
    }

    /** Closes both sockets (with a RST if {@code abort}) and wakes this connection's threads so they end. */
    void close(boolean abort) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        onClose.accept(this);
        if (abort) {
            lingerZero(client);
            lingerZero(server);
        }
        TcpProxy.closeQuietly(client);
        TcpProxy.closeQuietly(server);
        toServer.wake();
        toClient.wake();
    }

    /** One direction has passed on its end of stream; when both have, the connection is done. */
    private void finished() {
        if (finishedDirections.incrementAndGet() == 2) {
            close(false);
        }
    }

    private static void lingerZero(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
    }

    /** One chunk of bytes (or, with null data, the end of the stream) and the System.nanoTime() it is due at. */
    private record Chunk(byte[] data, long due) {
    }

    /** Bytes one way: a reader thread that stamps and queues them, a writer thread that delivers them. */
    private final class Direction {
        private final String name;
        private final Socket from;
        private final Socket to;
        private final boolean replies;
        private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>(TcpProxy.QUEUED_CHUNKS);
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
            threads.spawn(prefix + "read", this::readLoop);
            threads.spawn(prefix + "write", this::writeLoop);
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
                    long due = System.nanoTime() + faults.delayNanos();
                    if (n < 0) {
                        queue.put(new Chunk(null, due));
                        return;
                    }
                    if (n > 0 && !faults.discarding(replies)) {
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
                    while (faults.blackholed() && !closing.get()) {
                        TimeUnit.MILLISECONDS.sleep(1); // held until the partition heals or the proxy closes
                    }
                    if (chunk.data() == null) {
                        shutdownOutput();
                        finished();
                        return;
                    }
                    if (!faults.discarding(replies)) {
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
