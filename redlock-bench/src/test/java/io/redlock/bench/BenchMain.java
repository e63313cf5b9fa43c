package io.redlock.bench;

/**
 * Entry point: {@code mvn -B -q -pl redlock-bench -am test-compile exec:java} runs the side-by-side benchmark and
 * the contended scenario; with {@code -Dbench.heap=true}, the heap check instead. Settings: {@link BenchConfig}.
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) {
        BenchConfig config = BenchConfig.fromSystemProperties();
        if (!config.heap().enabled()) {
            Bench.run(config, System.out::println);
        } else if (!Bench.heap(config, System.out::println).bounded()) {
            throw new IllegalStateException("the used heap grew beyond the bound");
        }
    }
}
