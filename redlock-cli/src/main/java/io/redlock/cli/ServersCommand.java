package io.redlock.cli;

import io.redlock.testkit.RedisBinary;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "servers", mixinStandardHelpOptions = true,
        description = {"Start local Redis nodes to try redlock with; Ctrl-C stops them.",
            "Independent redis-server processes on loopback, without persistence; prints their URIs "
                    + "and an export line for REDLOCK_NODES."},
        footer = {"%nExamples:",
            "  redlock servers                      # 5 nodes on free ports",
            "  redlock servers --count 3 --port-base 7000",
            "  # it runs until Ctrl-C: in the shell where you use redlock, run the",
            "  # export REDLOCK_NODES=... line it printed"})
final class ServersCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--count", defaultValue = "5", paramLabel = "N", description = "How many nodes (default: 5).")
    int count;

    @Option(names = "--port-base", defaultValue = "0", paramLabel = "PORT",
            description = "First port; the others follow it (default: free ports).")
    int portBase;

    @Override
    public Integer call() throws InterruptedException {
        if (count < 1 || count > 64) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--count must be in [1, 64], was "
                    + count);
        }
        if (portBase != 0 && (portBase < 1 || portBase + count - 1 > 65535)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--port-base must leave ports "
                    + portBase + "-" + (portBase + count - 1) + " within 1-65535 (or be 0 for free ports)");
        }
        PrintWriter out = spec.commandLine().getOut();
        RedisNodes nodes = RedisNodes.start(count, portBase);
        ServersWatcher watcher;
        try {
            watcher = ServersWatcher.start(nodes.servers());
        } catch (IOException | RuntimeException e) {
            nodes.close();
            throw new IllegalStateException("cannot watch the servers: " + e.getMessage(), e);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            nodes.close();
            watcher.close();
            System.err.println("redlock: stopped " + count + " redis-server nodes");
            stopped.countDown();
        }, "redlock-servers-stop"));
        RedisBinary binary = RedisBinary.get();
        out.println("started " + count + " independent redis-server " + binary.version() + " nodes:");
        for (RedisServer server : nodes) {
            out.println("  " + server.uri() + "   (pid " + server.pid() + ")");
        }
        out.println("export " + NodeOptions.ENV_NODES + "=" + String.join(",", nodes.uris()));
        out.println("Press Ctrl-C to stop them.");
        out.flush();
        stopped.await();
        return ExitCodes.OK;
    }
}
