package io.redlock.cli;

import io.redlock.testkit.RedisServer;
import java.io.IOException;
import java.util.List;

/**
 * A process of its own (servers.pl) that stops the servers of {@code redlock servers} and removes their folders if
 * redlock dies without doing it (kill -9): the watcher of {@code redlock run}'s pattern, on a {@link Lifeline}.
 */
final class ServersWatcher implements AutoCloseable {

    private static final String SCRIPT = PerlBinary.script("lifeline.pl", "servers.pl");

    private final Lifeline lifeline;

    private ServersWatcher(Lifeline lifeline) {
        this.lifeline = lifeline;
    }

    /** Starts watching {@code servers}; returns once the watcher holds the lifeline. */
    static ServersWatcher start(List<RedisServer> servers) throws IOException, InterruptedException {
        Lifeline lifeline = Lifeline.create();
        try {
            ProcessBuilder watcher = PerlBinary.process(SCRIPT, lifeline.path().toString());
            for (RedisServer server : servers) {
                watcher.command().add(Long.toString(server.pid()));
                watcher.command().add(server.dir().toString());
            }
            Process started = watcher.redirectErrorStream(true).start();
            int exit = started.waitFor();
            if (exit != 0) {
                throw new IOException("the servers' watcher did not start: "
                        + new String(started.getInputStream().readAllBytes()).strip());
            }
            return new ServersWatcher(lifeline);
        } catch (IOException | InterruptedException | RuntimeException e) {
            lifeline.close();
            throw e;
        }
    }

    /** The servers were stopped here: the watcher exits without touching anything. */
    @Override
    public void close() {
        lifeline.done();
        lifeline.close();
    }
}
