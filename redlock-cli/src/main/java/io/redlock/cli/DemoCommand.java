package io.redlock.cli;

import io.redlock.testkit.ClockShim;
import io.redlock.testkit.RedisBinary;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Show Redlock and fencing tokens under faults, in under a minute, with no setup.",
            "Starts 5 local Redis nodes and a storage Redis; three workers increment a counter under the lock",
            "while a holder pauses past its validity, a node crashes and a node's clock jumps - first with",
            "fencing tokens, then without. Everything it starts is stopped at the end, also on Ctrl-C."},
        footer = {"%nExample:", "  ./redlock demo"})
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (!ClockShim.available()) {
            out.println("redlock demo needs gcc to build its clock-shift shim for the clock-jump fault.");
            return ExitCodes.UNAVAILABLE;
        }
        out.println("redlock demo: Redlock with fencing tokens, and what happens without them");
        out.println();
        long started = System.nanoTime();
        RedisBinary binary = RedisBinary.get();
        try (RedisNodes fencedNodes = RedisNodes.start(5, builder -> builder.clockShift());
                RedisNodes plainNodes = RedisNodes.start(5, builder -> builder.clockShift());
                RedisServer storage = RedisServer.launch()) {
            out.printf("Started 5 independent Redis nodes for the lock and 1 storage Redis (redis-server %s).%n",
                    binary.version());
            out.printf("Workers A, B and C each take the lock %d times (TTL %s), read a counter from the storage,%n"
                    + "add one and write it back.%n%n", DemoRound.PER_WORKER, Durations.format(DemoRound.TTL));

            out.println("=== Round 1: with fencing tokens (FencedRedis checks every write's token) ===");
            DemoRound fenced = new DemoRound(fencedNodes, storage, true, out);
            long fencedCounter = fenced.run();
            out.println();
            out.println("=== Round 2: the same faults, without fencing (plain GET and SET on the storage) ===");
            DemoRound plain = new DemoRound(plainNodes, storage, false, out);
            long plainCounter = plain.run();

            out.println();
            out.println("=== Summary ===");
            boolean fencedOk = fencedCounter == fenced.acknowledged.get();
            out.printf("with fencing:    %d acquisitions, %d writes accepted, %d stale writes rejected;"
                    + " counter %d %s acknowledged increments %d%n", fenced.acquisitions.get(), fenced.accepted.get(),
                    fenced.rejected.get(), fencedCounter, fencedOk ? "=" : "!=", fenced.acknowledged.get());
            long lost = plain.acknowledged.get() - plainCounter;
            out.printf("without fencing: %d acquisitions, %d writes accepted, %d rejected;"
                    + " counter %d %s acknowledged increments %d%s%n", plain.acquisitions.get(), plain.accepted.get(),
                    plain.rejected.get(), plainCounter, lost == 0 ? "=" : "!=", plain.acknowledged.get(),
                    lost > 0 ? ": " + lost + " acknowledged update" + (lost > 1 ? "s" : "") + " LOST" : "");
            out.println();
            out.println(fencedOk
                    ? "Fencing tokens turned the paused holder's write into a refusal: nothing was lost."
                    : "UNEXPECTED: the fenced counter does not match the acknowledged increments.");
            out.printf("(%.1f s; all nodes stopped)%n", (System.nanoTime() - started) / 1e9);
            out.flush();
            return fencedOk ? ExitCodes.OK : ExitCodes.SOFTWARE;
        }
    }
}
