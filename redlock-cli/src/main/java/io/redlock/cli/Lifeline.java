package io.redlock.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * A FIFO whose only write end this process holds, read by the job's watcher (job.pl): end of file tells the watcher
 * that redlock died, whatever killed it, because the kernel closes the write end of a dead process. {@link #done()}
 * tells it that redlock stopped the job itself.
 */
final class Lifeline implements AutoCloseable {

    private final Path path;
    private final RandomAccessFile writeEnd;

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

    /** Tells the watcher the job is over (stopped by redlock), so it exits without signalling anything. */
    void done() {
        try {
            writeEnd.write("done\n".getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            // the watcher is gone already: nothing is left to tell
        }
    }

    @Override
    public void close() {
        try {
            writeEnd.close();
            Files.deleteIfExists(path); // the watcher unlinks it once open; this covers a job that never started
        } catch (IOException e) {
            // best effort: a stale FIFO in the temp directory holds no data
        }
    }
}
