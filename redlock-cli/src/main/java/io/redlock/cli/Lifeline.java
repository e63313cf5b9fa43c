package io.redlock.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * A FIFO whose only write end this process holds, read by a watcher outside it (lifeline.pl, which documents the
 * lines): end of file tells the watcher that redlock died, whatever killed it, because the kernel closes the write end
 * of a dead process; a validity that runs out without a new one tells it that redlock stalled past the lock's expiry.
 * {@code redlock run}'s watcher then stops the job ({@link Job}), {@code redlock servers}' its servers
 * ({@link ServersWatcher}).
 */
final class Lifeline implements AutoCloseable {

    private final Path path;
    private final RandomAccessFile writeEnd;
    private final ExecutorService writer =
            Executors.newSingleThreadExecutor(Daemons.named("redlock-run-lifeline"));

    private Lifeline(Path path, RandomAccessFile writeEnd) {
        this.path = path;
        this.writeEnd = writeEnd;
    }

    static Lifeline create() throws IOException {
        Path path = Path.of(System.getProperty("java.io.tmpdir"), "redlock-run-" + UUID.randomUUID() + ".fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", "-m", "600", path.toString()).redirectErrorStream(true).start();
        try {
            int exit = mkfifo.waitFor();
            if (exit != 0) {
                String output = new String(mkfifo.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                throw new IOException("mkfifo " + path + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating " + path, e);
        }
        try {
            // read-write: opening a FIFO so does not wait for a reader (Linux), and we never read from it
            return new Lifeline(path, new RandomAccessFile(path.toFile(), "rw"));
        } catch (IOException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    Path path() {
        return path;
    }

    /** Tells the watcher how much longer the lock is valid: if redlock says nothing newer by then, it stops the job. */
    void validFor(Duration validity) {
        say("valid " + Math.max(0, validity.toMillis()));
    }

    /** Tells the watcher that redlock is stopping the job itself (the validity no longer counts). */
    void stopping() {
        say("stopping");
    }

    /** Tells the watcher the job is over (stopped by redlock), so it exits without signalling anything. */
    void done() {
        say("done");
    }

    /**
     * Writes on a thread of its own: if the watcher were gone (killed by hand), a full FIFO would block the write,
     * and only this thread must wait then, never the job's supervision.
     */
    private void say(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.US_ASCII);
        try {
            writer.execute(() -> {
                try {
                    writeEnd.write(bytes);
                } catch (IOException e) {
                    // the watcher is gone already: nothing is left to tell
                }
            });
        } catch (RejectedExecutionException e) {
            // closed: the job is over
        }
    }

    /** Closes the write end after the lines said so far (the watcher then sees end of file). */
    @Override
    public synchronized void close() {
        if (writer.isShutdown()) {
            return;
        }
        writer.execute(() -> {
            try {
                writeEnd.close();
            } catch (IOException e) {
                // nothing to do: the process exits soon
            }
        });
        writer.shutdown();
        try {
            Files.deleteIfExists(path); // the watcher unlinks it once open; this covers a job that never started
        } catch (IOException e) {
            // best effort: a stale FIFO in the temp directory holds no data
        }
    }
}
