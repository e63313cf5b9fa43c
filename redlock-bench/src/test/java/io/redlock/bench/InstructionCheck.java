package io.redlock.bench;

import io.redlock.Redlock;
import io.redlock.testkit.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * What each pair of {@link PairKinds} costs a node in instructions, fenced and not: one redis-server under valgrind's
 * callgrind, instrumented only while one caller runs the pairs on one resource, one at a time (callgrind_control);
 * the whole server's instructions divided by the pairs. Then the plain pair with {@link #IN_FLIGHT} in flight, each on
 * a resource of its own, as the harness's headline runs it: the operations queued for the node share batches. Unlike
 * times, the count hardly moves from run to run, so a change to a script shows as it is. Needs Debian's
 * {@code valgrind}.
 */
final class InstructionCheck {

    private static final Duration TTL = Duration.ofSeconds(30);
    /** Under valgrind a node answers in milliseconds, not microseconds. */
    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration CONTROL_TIMEOUT = Duration.ofSeconds(60);
    /** The pairs in flight of the plain pair's second count. */
    static final int IN_FLIGHT = 64;
    /** The name of that count. */
    static final String IN_FLIGHT_PAIR = PairKinds.PLAIN + ", " + IN_FLIGHT + " in flight";

    /** One pair's instructions, and the plain pair's with the same fencing. */
    record Count(String pair, boolean fenced, long perPair, long plainPerPair) {

        double ratio() {
            return (double) perPair / plainPerPair;
        }
    }

    record Result(int pairs, List<Count> counts) {
    }

    private InstructionCheck() {
    }

    static Result run(int pairs, Consumer<String> out) throws Exception {
        for (String tool : List.of("valgrind", "callgrind_control")) {
            if (!onPath(tool)) {
                throw new IllegalStateException("the instruction count needs " + tool
                        + " (Debian: apt-get install valgrind)");
            }
        }
        Path dir = Files.createTempDirectory("redlock-callgrind-");
        try (RedisServer server = RedisServer.builder().under("valgrind", "--tool=callgrind", "--instr-atstart=no",
                "--callgrind-out-file=" + dir.resolve("callgrind.%p")).start()) {
            List<Count> counts = new ArrayList<>();
            for (boolean fencing : List.of(true, false)) {
                try (Redlock redlock = Redlock.builder().nodes(List.of(server.uri())).fencing(fencing)
                        .nodeTimeout(NODE_TIMEOUT).build()) {
                    long plain = 0;
                    for (Map.Entry<String, Supplier<Runnable>> pair : PairKinds.of(redlock, "instr", TTL).entrySet()) {
                        Supplier<Runnable> acquired = pair.getValue();
                        long perPair = instructions(server, dir, pairs, n -> oneAtATime(acquired, n)) / pairs;
                        plain = plain == 0 ? perPair : plain; // the plain pair comes first
                        counts.add(report(new Count(pair.getKey(), fencing, perPair, plain), out));
                    }
                    try (RedlockContestant contestant = new RedlockContestant(List.of(server.uri()), fencing,
                            NODE_TIMEOUT)) {
                        long perPair = instructions(server, dir, pairs, n -> inFlight(contestant, n)) / pairs;
                        counts.add(report(new Count(IN_FLIGHT_PAIR, fencing, perPair, plain), out));
                    }
                }
            }
            return new Result(pairs, counts);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
        }
    }

    private static Count report(Count count, Consumer<String> out) {
        out.accept(String.format("%-8s %-22s %,9d instructions per pair   %.2fx the plain pair",
                count.fenced() ? "fenced" : "unfenced", count.pair(), count.perPair(), count.ratio()));
        return count;
    }

    /**
     * A warm-up of a tenth of {@code pairs} (10 at least), then the server's instructions over {@code pairs} pairs;
     * {@code run} runs as many pairs as it is given.
     */
    private static long instructions(RedisServer server, Path dir, int pairs, IntConsumer run)
            throws IOException, InterruptedException {
        run.accept(Math.max(pairs / 10, 10));
        control(server, "--instr=on");
        control(server, "--zero");
        run.accept(pairs);
        control(server, "--instr=off");
        List<Path> before = dumps(dir);
        control(server, "--dump");
        List<Path> written = dumps(dir);
        written.removeAll(before);
        if (written.size() != 1) {
            throw new IllegalStateException("callgrind wrote " + written.size() + " dumps, not 1: " + written);
        }
        return totals(written.get(0));
    }

    private static void oneAtATime(Supplier<Runnable> acquired, int pairs) {
        for (int i = 0; i < pairs; i++) {
            acquired.get().run();
        }
    }

    /** {@code pairs} pairs of {@code contestant}, {@link #IN_FLIGHT} at once, each slot on a resource of its own. */
    private static void inFlight(RedlockContestant contestant, int pairs) {
        AtomicInteger left = new AtomicInteger(pairs);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<String> resources = IntStream.range(0, IN_FLIGHT).mapToObj(i -> "instr:slot:" + i).toList();
        PairLoop.run(contestant, resources, () -> failed.get() == null && left.getAndDecrement() > 0,
                new PairLoop.Sink() {
                    @Override
                    public void completed(long startNanos, long endNanos) {
                    }

                    @Override
                    public void failed(Throwable error) {
                        failed.compareAndSet(null, error);
                    }
                }, CONTROL_TIMEOUT);
        if (failed.get() != null) {
            throw new IllegalStateException("a pair failed", failed.get());
        }
    }

    private static boolean onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, program)));
    }

    private static void control(RedisServer server, String what) throws IOException, InterruptedException {
        Process control = new ProcessBuilder("callgrind_control", what, Long.toString(server.pid()))
                .redirectErrorStream(true).start();
        if (!control.waitFor(CONTROL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) { // its few lines fit the pipe
            control.destroyForcibly();
            throw new IllegalStateException("callgrind_control " + what + " did not end within " + CONTROL_TIMEOUT);
        }
        if (control.exitValue() != 0) {
            throw new IllegalStateException("callgrind_control " + what + " failed: "
                    + new String(control.getInputStream().readAllBytes()).strip());
        }
    }

    private static List<Path> dumps(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new ArrayList<>(files.toList());
        }
    }

    /** The {@code totals:} line of a callgrind dump: the instructions it counted. */
    private static long totals(Path dump) throws IOException {
        try (Stream<String> lines = Files.lines(dump)) {
            return lines.filter(line -> line.startsWith("totals:")).findFirst()
                    .map(line -> Long.parseLong(line.substring("totals:".length()).trim()))
                    .orElseThrow(() -> new IllegalStateException(dump + " has no totals line"));
        }
    }
}
