package io.redlock.cli;

import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedRedis;
import io.redlock.fencing.FencedResult;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The fenced storage as a {@code redlock run} job reaches it: a line protocol on a loopback port. A job sends its
 * {@code REDLOCK_TOKEN} and {@code REDLOCK_VALUE} ("{@code token value}"); the gate reads the resource's counter with
 * that fence and answers the value, or {@code stale}; the job sends {@code write} and the gate writes the counter plus
 * one with the fence and answers {@code ok} or {@code stale}. Each call is recorded in the resource's history as the
 * process {@code cli}, as the storage saw it.
 */
final class NemesisStorageGate implements AutoCloseable {

    private final ServerSocket socket;
    private final FencedRedis fenced;
    private final History history;
    private final String resource;
    private final ExecutorService connections = Executors.newCachedThreadPool(r -> new Thread(r, "storage-gate"));
    private final Thread acceptor;

    NemesisStorageGate(FencedRedis fenced, History history, String resource) throws IOException {
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.fenced = fenced;
        this.history = history;
        this.resource = resource;
        this.acceptor = new Thread(this::accept, "storage-gate-accept");
        acceptor.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket job = socket.accept();
                connections.execute(() -> serve(job));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket job) {
        try (job; BufferedReader in = new BufferedReader(new InputStreamReader(job.getInputStream(),
                StandardCharsets.UTF_8)); PrintWriter out = new PrintWriter(job.getOutputStream(), true,
                StandardCharsets.UTF_8)) {
            job.setSoTimeout(30_000);
            String[] lease = in.readLine().trim().split(" ");
            long token = Long.parseLong(lease[0]);
            Fence fence = new Fence(token, lease[1]);
            String key = NemesisLog.counter(resource);
            History.Call read = history.invoke("cli", Op.READ, lease[1], token, null);
            FencedResult<String> got = fenced.get(key, fence);
            if (!got.accepted()) {
                read.fail("stale read");
                out.println("stale");
                return;
            }
            long counter = got.value() == null ? 0 : Long.parseLong(got.value());
            read.okRead(counter);
            out.println(counter);
            if (!"write".equals(in.readLine())) {
                return; // the job was stopped before it wrote
            }
            History.Call write = history.invoke("cli", Op.WRITE, lease[1], token, counter + 1);
            FencedResult<Void> put = fenced.set(key, Long.toString(counter + 1), fence);
            if (put.accepted()) {
                write.ok();
                out.println("ok");
            } else {
                write.fail("stale write");
                out.println("stale");
            }
        } catch (IOException | RuntimeException e) {
            // a job killed halfway (its lease lost): what it did is recorded
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        socket.close();
        acceptor.join(10_000);
        connections.shutdown();
        connections.awaitTermination(30, TimeUnit.SECONDS);
    }
}
