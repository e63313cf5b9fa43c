package io.redlock.fencing.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A generated history to run: leases granted in token order, each doing one to three fenced operations on a few
 * rows, some of them paused after their grant until two later leases have finished (a stale holder, as a GC pause
 * past the lease's validity), all of them started a moment apart so that many write at once.
 */
record Schedule(long seed, List<Lease> leases) {

    static final int ROWS = 3;

    /** What an operation does; {@link #PAIR} fences two rows in one transaction. */
    enum Kind { UPDATE, UPSERT, DELETE, PAIR }

    /** One operation of a lease: one transaction on {@code rows}. */
    record Op(Kind kind, List<Long> rows) {
    }

    /** A lease: its token, whether it pauses after its grant, its operations in order. */
    record Lease(long token, boolean paused, List<Op> ops) {
        String owner() {
            return "lease-" + token;
        }
    }

    static Schedule generate(long seed, int leases) {
        Random random = new Random(seed);
        List<Lease> all = new ArrayList<>();
        for (int i = 0; i < leases; i++) {
            List<Op> ops = new ArrayList<>();
            int count = 1 + random.nextInt(3);
            for (int j = 0; j < count; j++) {
                ops.add(op(random));
            }
            all.add(new Lease(i + 1L, random.nextInt(4) == 0, ops));
        }
        return new Schedule(seed, all);
    }

    private static Op op(Random random) {
        long row = 1 + random.nextInt(ROWS);
        int pick = random.nextInt(20);
        if (pick < 10) {
            return new Op(Kind.UPDATE, List.of(row));
        }
        if (pick < 14) {
            return new Op(Kind.UPSERT, List.of(row));
        }
        if (pick < 16) {
            return new Op(Kind.DELETE, List.of(row));
        }
        long other = 1 + (row % ROWS);
        return new Op(Kind.PAIR, List.of(row, other));
    }
}
