package io.redlock.bench;

import java.util.List;

/** The contestants by id, in the order of the table. */
final class Contestants {

    /** The physical reference every other contestant is compared with. */
    static final String BASELINE = "lettuce";

    static final List<String> ALL = List.of("fenced", "unfenced", BASELINE, "redisson", "redisson-redlock");

    private Contestants() {
    }

    /** Creates and connects the contestant {@code id} on the nodes {@code uris} (the 1-node ones use the first). */
    static Contestant create(String id, List<String> uris) {
        return switch (id) {
            case "fenced" -> new RedlockContestant(uris, true);
            case "unfenced" -> new RedlockContestant(uris, false);
            case BASELINE -> new LettuceContestant(uris);
            case "redisson" -> new RedissonLockContestant(uris.get(0));
            case "redisson-redlock" -> new RedissonRedLockContestant(uris);
            default -> throw new IllegalArgumentException("unknown contestant " + id + ", known: " + ALL);
        };
    }
}
