package io.redlock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that moves only when told to. */
public final class FakeTicker implements Ticker {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Override
    public long read() {
        return now.get();
    }

    public void advance(Duration duration) {
        now.addAndGet(duration.toNanos());
    }
}
