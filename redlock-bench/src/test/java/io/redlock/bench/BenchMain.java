package io.redlock.bench;

/**
 * Entry point: {@code mvn -B -q -pl redlock-bench -am test-compile exec:java} runs the side-by-side benchmark, the
 * contended scenario and the kinds of lock; with {@code -Dbench.kinds.only=true}, the kinds of lock alone; with
 * {@code -Dbench.heap=true}, the heap check instead; with {@code -Dbench.counters=true}, the fencing counter
 * check; with {@code -Dbench.leases=true}, the many-leases check; with {@code -Dbench.scaling=true}, the shard cost
 * check; with {@code -Dbench.calls=true}, the per-call cost check (with {@code -Dbench.calls.instructions=true}, its
 * instruction count under callgrind). Settings: {@link BenchConfig}. Fails if a kind of lock had holders its rule excludes.
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        BenchConfig config = BenchConfig.fromSystemProperties();
        if (config.kinds().only()) {
            requireNoViolation(Bench.kinds(config, System.out::println));
        } else if (config.calls().enabled() && config.calls().instructions()) {
            Bench.instructions(config, System.out::println);
        } else if (config.calls().enabled()) {
            Bench.calls(config, System.out::println);
        } else if (config.scaling().enabled()) {
            Bench.scaling(config, System.out::println);
        } else if (config.leases().enabled()) {
            Bench.leases(config, System.out::println);
        } else if (config.counters().enabled()) {
            if (!Bench.counters(config, System.out::println).cleared()) {
                throw new IllegalStateException("the nodes did not come back to their baseline");
            }
        } else if (!config.heap().enabled()) {
            requireNoViolation(Bench.run(config, System.out::println).kinds());
        } else if (!Bench.heap(config, System.out::println).bounded()) {
            throw new IllegalStateException("the used heap grew beyond the bound");
        }
    }

    private static void requireNoViolation(java.util.List<Kinds.Result> kinds) {
        kinds.stream().filter(r -> r.counts().violations() > 0).findFirst().ifPresent(r -> {
            throw new IllegalStateException(r.level().contestant() + ": " + r.counts().violations()
                    + " holds beside holders its rule excludes");
        });
    }
}
