package io.redlock.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/** Writes the raw results as Markdown ({@code results.md}, {@code heap.md}) next to the charts. */
final class ResultsFile {

    private ResultsFile() {
    }

    static Path sideBySide(BenchConfig config, String environment, List<LevelResult> levels,
            List<ContendedResult> contended, List<Path> charts) {
        StringBuilder md = new StringBuilder();
        md.append("# Benchmark results (raw)\n\n")
                .append(header(environment))
                .append(String.format("Run: %s of unmeasured JIT warm-up per contestant, then %d round(s) per level, "
                        + "%s warm-up and %s measured window per contestant and round, interleaved; contestants %s.%n%n",
                        text(config.jit()), config.rounds(), text(config.warmup()),
                        text(config.window()), config.contestants()))
                .append("## Side by side\n\n")
                .append("A pair is one acquisition followed by its release, on a resource of its own per in-flight "
                        + "slot (TTL 10 s, no waiting). pairs/s is the median over the rounds; p50/p99/p99.9 "
                        + "(µs, per pair) come from the merged histograms of all measured windows. Ratios are to bare "
                        + "Lettuce (SET NX PX + compare-and-delete on 5 nodes, majority) at the same level. CPU per "
                        + "pair: the benchmark JVM's and the five redis-server processes' CPU time over the measured "
                        + "windows, divided by the pairs (medians of the rounds); client alloc: bytes the JVM's threads "
                        + "allocated per pair; other CPU: what every other process on the machine used meanwhile, in "
                        + "% of one core (from /proc/stat). Errors: "
                        + "pairs that failed, warm-ups included.\n\n")
                .append(Tables.sideBySide(levels).markdown()).append('\n');
        levels.stream().filter(r -> r.errors() > 0).forEach(r -> md.append(String.format(
                "- %s at %d in flight, first error: `%s`%n", r.contestant(), r.inFlight(), r.firstError())));
        charts.forEach(chart -> md.append(String.format("%n![%s](%s)%n", chart.getFileName(), chart.getFileName())));
        if (!contended.isEmpty()) {
            md.append(String.format("%n## Contended: %s clients, one resource, %d ms of work per hold%n%n",
                            config.contendedClients().stream().map(String::valueOf)
                                    .collect(java.util.stream.Collectors.joining(" and ")), Contended.WORK_MILLIS))
                    .append(String.format("Each client loops acquire (TTL 2 s, wait up to 5 s) → %d ms work → release; "
                            + "%s warm-up, %s measured. Wait = from starting to wait until acquired.%n%n",
                            Contended.WORK_MILLIS, text(config.contendedWarmup()), text(config.contendedWindow())))
                    .append(Tables.contended(contended).markdown());
        }
        return write(config.out().resolve("results.md"), md);
    }

    static Path kinds(BenchConfig config, String environment, List<Kinds.Result> results) {
        BenchConfig.KindSettings k = config.kinds();
        StringBuilder md = new StringBuilder("# Kinds of lock (raw)\n\n").append(header(environment))
                .append(String.format("Run: %s of unmeasured JIT warm-up per contestant (same threads), then %d round(s),"
                        + " %s warm-up and %s measured window per contestant and round, interleaved.%n%n",
                        text(config.jit()), config.rounds(), text(config.warmup()), text(config.window())))
                .append(String.format("Blocking callers, %d threads per contestant; a pair is acquire (waiting up to %s,"
                        + " TTL %d s, no watchdog) → %s of work (parked) → release. Plain lock: each thread its own"
                        + " resource (the baseline). Several resources: %d at once, thread s holding those of s, s + 1,"
                        + " ... in a ring of %d, listed in one order. Read-write: one resource, thread 0 writes (resting"
                        + " %s before each pair, outside its timing), the others read. Semaphore: %d permits, every"
                        + " thread taking one. redlock-java on %s node(s), fenced, its defaults but a per-node timeout"
                        + " of %s; Redisson on the first node, its defaults. pairs/s: median of the rounds (min–max);"
                        + " the ratios are taken round by round, against the baseline and against Redisson's equivalent"
                        + " measured in the same round: median (min–max). p50/p99 (µs, per pair, waiting included) from"
                        + " the merged histograms of the measured windows; CPU per pair and other CPU (what every"
                        + " other process on the machine used meanwhile) as in the side-by-side table."
                        + " Counted in the client over everything each contestant ran (JIT warm-up, warm-ups and"
                        + " windows): the most threads holding at once, the writer's holds among all, waits that ran"
                        + " out, violations (two holders of a plain lock or of a resource of several, a writer beside a"
                        + " reader or another writer, more holders than permits: each hold is marked from when its"
                        + " acquisition returned until before its release) and errors (acquire or release threw).%n%n",
                        k.threads(), text(k.maxWait()), KindContestant.TTL_SECONDS, text(k.hold()), k.several(),
                        k.threads(), text(k.writerRest()), k.permits(), k.nodes(), text(RedlockContestant.NODE_TIMEOUT)))
                .append(Tables.kinds(results).markdown());
        results.stream().filter(r -> r.counts().firstFailure() != null).forEach(r -> md.append(String.format(
                "%n- %s, first error: `%s`", r.level().contestant(), r.counts().firstFailure())));
        return write(config.out().resolve("kinds.md"), md.append('\n'));
    }

    static Path heap(Path dir, String environment, HeapResult result) {
        StringBuilder md = new StringBuilder("# Heap check (raw)\n\n").append(header(environment))
                .append(String.format("%s: %,d acquire + release pairs, %d in flight on the same resources; used heap "
                        + "after System.gc() every %,d pairs. Growth from the first to the last sample: %+,d KiB, "
                        + "bound +%,d KiB: **%s**. Errors: %d%s.%n%n", result.contestant(), result.pairs(),
                        result.inFlight(), result.every(), result.growthBytes() >> 10, result.boundBytes() >> 10,
                        result.bounded() ? "bounded" : "NOT bounded", result.errors(),
                        result.errors() == 0 ? "" : " (first: `" + result.firstError() + "`)"))
                .append(Tables.heap(result).markdown());
        return write(dir.resolve("heap.md"), md);
    }

    static Path counters(Path dir, String environment, CounterCheck.Result r) {
        StringBuilder md = new StringBuilder("# Fencing counter check (raw)\n\n").append(header(environment))
                .append(String.format("%,d distinct resources locked and released (%d s), counter horizon %s. Back within"
                        + " %.0f %% of the baseline (DBSIZE and used_memory on every node): **%s**, %d s after the last"
                        + " release. %,d resources locked again: %,d tokens not above their earlier ones. Errors: %d.%n%n",
                        r.resources(), r.lockTime().toSeconds(), text(r.horizon()), CounterCheck.WITHIN * 100,
                        r.cleared() ? "yes" : "NO", r.clearTime().toSeconds(), r.sampled(), r.tokensNotHigher(),
                        r.errors()))
                .append("| node | cold used_memory | baseline keys | baseline used_memory | after the run: keys | used_memory |"
                        + " after the horizon: keys | used_memory | fenced lock, bytes per held lock |"
                        + " plain SET NX PX lock, bytes |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (int n = 0; n < r.baseline().size(); n++) {
            md.append(String.format("| %d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d |%n", n,
                    r.cold().get(n).usedMemory(), r.baseline().get(n).keys(), r.baseline().get(n).usedMemory(),
                    r.loaded().get(n).keys(),
                    r.loaded().get(n).usedMemory(), r.after().get(n).keys(), r.after().get(n).usedMemory(),
                    r.fencedBytesPerLock().get(n), r.plainBytesPerLock().get(n)));
        }
        md.append(String.format("%nBaseline: the nodes empty and settled after a warm-up of distinct resources whose"
                + " keys all expired; cold: before any key. After the run: the keys still there when the last resource"
                + " was released (counters of the resources released in the last horizon). Bytes per held lock:"
                + " used_memory grown by holding %,d locks, divided by %,d.%n", r.held(), r.held()));
        return write(dir.resolve("counters.md"), md);
    }

    static Path leases(Path dir, String environment, LeaseCheck.Result r) {
        LeaseCheck.Burst b = r.burst();
        StringBuilder md = new StringBuilder("# Many leases check (raw)\n\n").append(header(environment))
                .append(String.format("%,d leases kept alive by one client (`withLockAsync`, TTL %s), all held after %d s,"
                        + " then held %s. Client heap per lease: **%,d bytes** once all were taken, **%,d bytes** at the"
                        + " end of the hold (used heap after System.gc(): %,d KiB before, %,d KiB and %,d KiB). While held:"
                        + " %,d extension rounds (%,d failed), client CPU %.0f %% of a core, the 5 nodes %.0f %%. Leases"
                        + " lost while held: **%d**; errors %d; kept alive at the end: %,d.%n%n",
                        r.leases(), text(r.ttl()), r.acquireTime().toSeconds(), text(r.hold()), r.heapPerLeaseBytes(),
                        r.heapPerLeaseAtEndBytes(), r.heapBeforeBytes() >> 10, r.heapHeldBytes() >> 10,
                        r.heapEndBytes() >> 10, r.extensionRounds(), r.failedRounds(),
                        100 * r.clientCpuShare(), 100 * r.serverCpuShare(), r.lost(), r.errors(), r.keptAliveAtEnd()))
                .append(String.format("Then %,d of them released at once (one future completes their work): **%,d ms**,"
                        + " client CPU %.0f %% of a core and the 5 nodes %.0f %% over that time, %,d extension rounds"
                        + " failed meanwhile, **%,d leases lost** during it. The other %,d kept for %d s more: **%,d"
                        + " lost**, %,d kept alive at the end; then released at once in %,d ms.%n%n"
                        + "Expiry notices of leases without keep-alive (%s TTL, a loss listener each), lateness after"
                        + " the end of validity: running out as the burst starts, %s; later, on a quiet client, %s.%n%n",
                        b.released(), b.time().toMillis(), 100 * b.clientCpuShare(), 100 * b.serverCpuShare(),
                        b.failedRounds(), b.lostDuring(), b.kept(), b.keptFor().toSeconds(), b.lostWhileKept(),
                        b.keptAliveAtEnd(), b.finalReleaseTime().toMillis(), text(LeaseCheck.PROBE_TTL), b.lateDuring().text(),
                        b.lateQuiet().text()))
                .append(String.format("| node | EVALSHA calls while held | extension operations per call |%n|---|---|---|%n"));
        for (int n = 0; n < r.evalshaCalls().size(); n++) {
            md.append(String.format("| %d | %,d | %.1f |%n", n, r.evalshaCalls().get(n), r.opsPerCall(n)));
        }
        return write(dir.resolve("leases.md"), md);
    }

    static Path scaling(Path dir, String environment, ScalingCheck.Result r) {
        StringBuilder md = new StringBuilder("# Shard cost check (raw)\n\n").append(header(environment))
                .append(String.format("%d quorum members, each a single redis-server, then each a Redis Cluster of %d"
                        + " masters, alternating for %d rounds; every phase: acquire and release of distinct"
                        + " resources (fenced, %d in flight) for %s after a warm-up of a quarter of that. CPU: the"
                        + " server's utime + stime from /proc over the phase, divided by the lock pairs it served (a"
                        + " server serves every pair, a shard the pairs whose resource hashes to its slots). Script calls:"
                        + " EVALSHA and EVAL from INFO commandstats, per pair served: 2 is no batching at all (acquire"
                        + " and release; the token's commit only runs when the nodes' counters disagree).%n%n"
                        + "| phase | round | pairs | pairs/s | errors | CPU µs per pair served, per server | mean |"
                        + " script calls per pair served | client CPU µs per pair |%n|---|---|---|---|---|---|---|---|---|%n",
                        r.members(), r.shards(), r.phases().size() / 2, r.inFlight(), text(r.window())));
        for (ScalingCheck.Phase p : r.phases()) {
            md.append(String.format("| %s | %d | %,d | %,.0f | %d | %s | %.1f | %s | %.0f |%n", p.kind(), p.round(),
                    p.pairs(), p.pairsPerSecond(), p.errors(), oneDecimal(p.cpuMicrosPerPair()),
                    p.meanCpuMicrosPerPair(), oneDecimal(p.scriptCallsPerPair()), p.clientCpuMicrosPerPair()));
        }
        return write(dir.resolve("scaling.md"), md);
    }

    static Path calls(Path dir, String environment, CallCostCheck.Result r) {
        StringBuilder md = new StringBuilder("# Per-call cost on the nodes (raw)\n\n").append(header(environment))
                .append(String.format("One caller takes and releases the same resource %,d times (then extends one"
                        + " lease %,d times), one operation in flight, fenced and not; then the smallest script or"
                        + " command that does each job, by bare Lettuce, the same way on the same nodes. The nodes'"
                        + " own count (INFO commandstats, usec over the phase) per operation: the mean of the five"
                        + " nodes, each node's own beside it. A fenced acquire is the pairs' script time beyond the"
                        + " release measured without fencing (the same script): an estimate, the difference of two"
                        + " phases; the fenced floor likewise. The pairs (acquire and release) of a read lock, a permit"
                        + " of a semaphore of 2 and a lock of 2 resources are set beside the library's own pair on one"
                        + " resource, fenced or not as they are. %d rounds.%n%n"
                        + "| round | operation | µs per call | per node | floor | floor µs per call | ratio |%n"
                        + "|---|---|---:|---|---|---:|---:|%n", r.pairs(), r.pairs(), r.rounds()));
        for (int round = 0; round < r.byRound().size(); round++) {
            for (CallCostCheck.Cost c : r.byRound().get(round)) {
                md.append(String.format("| %d | %s | %.2f | %s | %s | %.2f | %.2fx |%n", round + 1, c.operation(),
                        c.mean(), oneDecimal(c.micros()), c.floor(), c.floorMean(), c.ratio()));
            }
        }
        return write(dir.resolve("calls.md"), md);
    }

    static Path instructions(Path dir, String environment, InstructionCheck.Result r) {
        StringBuilder md = new StringBuilder("# Instructions per pair on a node (raw)\n\n").append(header(environment))
                .append(String.format("One redis-server under valgrind's callgrind, instrumented only while one caller"
                        + " takes and releases the same resource %,d times, one operation in flight (after a warm-up"
                        + " of a tenth as many), for each kind of lock, fenced and not, then the plain pair with %d"
                        + " in flight, each on a resource of its own: the whole server's instructions divided by the"
                        + " pairs, and the ratio to the plain lock's pair (one at a time) with the same fencing.%n%n"
                        + "| fencing | pair | instructions per pair | vs the plain pair |%n"
                        + "|---|---|---:|---:|%n", r.pairs(), InstructionCheck.IN_FLIGHT));
        for (InstructionCheck.Count c : r.counts()) {
            md.append(String.format("| %s | %s | %,d | %.2fx |%n", c.fenced() ? "fenced" : "none", c.pair(),
                    c.perPair(), c.ratio()));
        }
        return write(dir.resolve("instructions.md"), md);
    }

    private static String oneDecimal(List<Double> values) {
        return String.join(" ", values.stream().map(v -> String.format("%.1f", v)).toList());
    }

    private static String header(String environment) {
        return String.format("Written by `io.redlock.bench.BenchMain` at %s. %s.%n%n",
                Instant.now().truncatedTo(ChronoUnit.SECONDS), environment);
    }

    private static String text(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private static Path write(Path file, CharSequence content) {
        try {
            Files.createDirectories(Objects.requireNonNull(file.getParent()));
            Files.writeString(file, content);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
