package io.redlock.cli;

import io.redlock.testkit.ClockShim;
import io.redlock.testkit.RedisBinary;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.RedisServerBuilder;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Show Redlock and fencing tokens under faults, in under a minute, with no setup.",
            "Starts 5 local Redis lock nodes and a storage Redis; three workers increment a counter "
                    + "under the lock while a holder pauses past its validity, a node crashes and a node's "
                    + "clock jumps - first with fencing tokens, then on 5 fresh nodes without. Everything it "
                    + "starts is stopped at the end, also on Ctrl-C. The clock jump needs gcc (for an "
                    + "LD_PRELOAD shim); without gcc it is skipped with a note."},
        footer = {"%nExample:", "  redlock demo"})
final class DemoCommand implements Callable<Integer> {

    /** Printed instead of the clock-jump fault when gcc is missing. */
    static final String CLOCK_JUMP_SKIPPED = "Note: no gcc on this machine, so fault 3 (a node's clock jumps) is"
            + " skipped: it needs gcc to build a small LD_PRELOAD clock shim. Everything else runs.";

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        boolean clockJump = ClockShim.available();
        UnaryOperator<RedisServerBuilder> lockNode = clockJump ? RedisServerBuilder::clockShift : b -> b;
        out.println("redlock demo: Redlock with fencing tokens, and what happens without them");
        out.println();
        long started = System.nanoTime();
        RedisBinary binary = RedisBinary.get();
        try (RedisNodes fencedNodes = RedisNodes.start(5, lockNode);
                RedisNodes plainNodes = RedisNodes.start(5, lockNode);
                RedisServer storage = RedisServer.launch()) {
            out.printf("Started 11 independent redis-server %s processes: 5 lock nodes for round 1, 5 fresh lock"
                    + " nodes for round 2, and 1 storage Redis.%n", binary.version());
            if (!clockJump) {
                out.println(CLOCK_JUMP_SKIPPED);
            }
            out.printf("Workers A, B and C each take the lock %d times (TTL %s), read a counter from the storage,%n"
                    + "add one and write it back.%n%n", DemoRound.PER_WORKER, Durations.format(DemoRound.TTL));

            out.println("=== Round 1: with fencing tokens (FencedRedis checks every write's token) ===");
            DemoRound fenced = new DemoRound(fencedNodes, storage, true, clockJump, out);
            long fencedCounter = fenced.run();
            out.println();
            out.println("=== Round 2: the same faults, without fencing (plain GET and SET on the storage) ===");
            DemoRound plain = new DemoRound(plainNodes, storage, false, clockJump, out);
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
