package io.redlock.histories;

import static org.quicktheories.QuickTheory.qt;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.quicktheories.core.Gen;

/**
 * How every generated-history property runs: {@value #DEFAULT_EXAMPLES} histories unless {@code QT_EXAMPLES} says
 * otherwise, shrinking bounded in cycles and time (each cycle replays a history against the servers;
 * {@code QT_SHRINK_SECONDS}, 60 by default), and, on failure,
 * QuickTheories' report: the smallest failing history, the others found, and the seed ({@code -DQT_SEED=S} replays
 * it).
 */
final class Histories {

    static final int DEFAULT_EXAMPLES = 12;
    private static final int SHRINK_CYCLES = 200;
    /**
     * How long shrinking may replay histories after the first failure: after that, every candidate passes unrun, so
     * the report comes with the smallest failing history found by then.
     */
    private static final Duration SHRINK_BUDGET = Duration.ofSeconds(Long.getLong("QT_SHRINK_SECONDS", 60));

    /** A history run against the servers, failing with an {@link AssertionError} where the model disagrees. */
    @FunctionalInterface
    interface Run<T> {
        void run(T history) throws Exception;
    }

    /** One step of a generated history on a world of type {@code W}. */
    interface Step<W> {
        /** Runs the step; false if it was skipped (nothing to act on). */
        boolean run(W world) throws Exception;
    }

    private Histories() {
    }

    /** The constant of {@code values} a roll in [0, 100) draws, each drawn {@code weight} times in 100. */
    static <E extends Enum<E>> E drawn(E[] values, java.util.function.ToIntFunction<E> weight, int roll) {
        int sum = 0;
        for (E value : values) {
            sum += weight.applyAsInt(value);
            if (roll < sum) {
                return value;
            }
        }
        throw new IllegalStateException("the weights add up to " + sum + ", not 100");
    }

    /**
     * Runs {@code steps} on {@code world}, checking {@code invariant} after each one that ran, then {@code end}; a
     * failure names the steps that ran before it.
     */
    static <W> void replay(W world, java.util.List<? extends Step<W>> steps, java.util.function.Consumer<W> invariant,
            Run<W> end) throws Exception {
        java.util.List<String> ran = new java.util.ArrayList<>();
        try {
            for (Step<W> step : steps) {
                if (step.run(world)) {
                    ran.add(step.toString());
                    invariant.accept(world);
                }
            }
            ran.add("(unwind)");
            end.run(world);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("after " + ran + ": " + e.getMessage(), e);
        }
    }

    static <T> void check(Gen<T> histories, Run<T> run) {
        AtomicLong firstFailure = new AtomicLong();
        qt().withExamples(Integer.getInteger("QT_EXAMPLES", DEFAULT_EXAMPLES))
                .withShrinkCycles(Integer.getInteger("QT_SHRINKS", SHRINK_CYCLES))
                .forAll(histories).checkAssert(history -> {
                    long failed = firstFailure.get();
                    if (failed != 0 && System.nanoTime() - failed > SHRINK_BUDGET.toNanos()) {
                        return;
                    }
                    try {
                        run.run(history);
                    } catch (RuntimeException | Error e) {
                        firstFailure.compareAndSet(0, System.nanoTime());
                        throw e;
                    } catch (Exception e) {
                        firstFailure.compareAndSet(0, System.nanoTime());
                        throw new IllegalStateException(e);
                    }
                });
    }
}
