package io.redlock.bench;

import java.util.List;
import java.util.stream.Stream;

/** The contestants by id, in the order of the table. */
final class Contestants {

    /** The physical reference every other contestant is compared with. */
    static final String BASELINE = "lettuce";

    static final List<String> ALL = List.of("fenced", "unfenced", BASELINE, "redisson", "redisson-redlock");

    /**
     * Measured with blocking callers (a thread per slot), on request only: redlock-java's blocking API, fenced and
     * not, and bare Lettuce's Redlock with its caller waiting.
     */
    static final List<String> BLOCKING = List.of("fenced-blocking", "unfenced-blocking", BASELINE + "-blocking");

    /**
     * On request only: redlock-java fenced and not, and bare Lettuce's Redlock, each pair on a resource nobody locked
     * before ({@link FreshResources}), where the others reuse their slot's resource.
     */
    static final List<String> FRESH = Stream.of("fenced", "unfenced", BASELINE).map(id -> id + FreshResources.SUFFIX)
            .toList();

    private Contestants() {
    }

    /** Every id {@link #create} knows: the default side-by-side ones, then the blocking and the fresh ones. */
    static final List<String> KNOWN = Stream.of(ALL, BLOCKING, FRESH).flatMap(List::stream).toList();

    /** Creates and connects the contestant {@code id} on the nodes {@code uris} (the 1-node ones use the first). */
    static Contestant create(String id, List<String> uris) {
        return switch (id) {
            case "fenced" -> new RedlockContestant(uris, true);
            case "unfenced" -> new RedlockContestant(uris, false);
            case BASELINE -> new LettuceContestant(uris);
            case "redisson" -> new RedissonLockContestant(uris.get(0));
            case "redisson-redlock" -> new RedissonRedLockContestant(uris);
            case "fenced-blocking" -> BlockingContestant.redlock(new RedlockContestant(uris, true));
            case "unfenced-blocking" -> BlockingContestant.redlock(new RedlockContestant(uris, false));
            case BASELINE + "-blocking" -> BlockingContestant.waitingOn(new LettuceContestant(uris));
            default -> {
                if (!FRESH.contains(id)) {
                    throw unknown(id);
                }
                yield new FreshResources(create(id.substring(0, id.length() - FreshResources.SUFFIX.length()), uris));
            }
        };
    }

    /** The error for an id {@link #create} does not know. */
    static IllegalArgumentException unknown(String id) {
        return new IllegalArgumentException("unknown contestant " + id + ", known: " + KNOWN);
    }
}
