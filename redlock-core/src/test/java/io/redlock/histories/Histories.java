package io.redlock.histories;

import static org.quicktheories.QuickTheory.qt;

import org.quicktheories.core.Gen;

/**
 * How every generated-history property runs: {@value #DEFAULT_EXAMPLES} histories unless {@code QT_EXAMPLES} says
 * otherwise, a bounded number of shrinking cycles (each one replays a history against the servers), and, on failure,
 * QuickTheories' report: the smallest failing history, the others found, and the seed ({@code -DQT_SEED=S} replays
 * it).
 */
final class Histories {

    static final int DEFAULT_EXAMPLES = 12;
    private static final int SHRINK_CYCLES = 200;

    /** A history run against the servers, failing with an {@link AssertionError} where the model disagrees. */
    @FunctionalInterface
    interface Run<T> {
        void run(T history) throws Exception;
    }

    private Histories() {
    }

    static <T> void check(Gen<T> histories, Run<T> run) {
        qt().withExamples(Integer.getInteger("QT_EXAMPLES", DEFAULT_EXAMPLES))
                .withShrinkCycles(Integer.getInteger("QT_SHRINKS", SHRINK_CYCLES))
                .forAll(histories).checkAssert(history -> {
                    try {
                        run.run(history);
                    } catch (RuntimeException | Error e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
    }
}
