package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Property: a reply's listener is told exactly once, with the reply's outcome, whether it listens before or after the
 * reply completes, or while it completes; a second listener is refused and told nothing; the reply's own
 * dependents run as for any stage.
 */
class TalliedReplyTest {

    /** Records what it was told. */
    private static final class Heard implements TalliedReply.Listener<Long> {
        final AtomicInteger times = new AtomicInteger();
        final AtomicReference<Object> outcome = new AtomicReference<>();

        @Override
        public void heard(TalliedReply<? extends Long> reply, Long value, Throwable failure) {
            times.incrementAndGet();
            outcome.set(failure != null ? failure : value);
        }
    }

    @Test
    void aListenerIsToldTheValueOnceWhetherItListensBeforeOrAfter() {
        TalliedReply<Long> early = new TalliedReply<>();
        Heard before = new Heard();
        assertThat(early.listen(before)).isTrue();
        early.complete(7L);
        early.complete(8L);

        TalliedReply<Long> late = new TalliedReply<>();
        late.complete(7L);
        Heard after = new Heard();
        assertThat(late.listen(after)).isTrue();

        assertThat(before.times).hasValue(1);
        assertThat(before.outcome).hasValue(7L);
        assertThat(after.times).hasValue(1);
        assertThat(after.outcome).hasValue(7L);
    }

    @Test
    void aFailureIsToldAsThrownNotWrapped() {
        IllegalStateException failure = new IllegalStateException("node down");
        TalliedReply<Long> early = new TalliedReply<>();
        Heard before = new Heard();
        early.listen(before);
        early.completeExceptionally(failure);
        TalliedReply<Long> late = new TalliedReply<>();
        late.completeExceptionally(failure);
        Heard after = new Heard();
        late.listen(after);

        assertThat(before.outcome).hasValue(failure);
        assertThat(after.outcome).hasValue(failure);
    }

    @Test
    void aSecondListenerIsRefusedAndToldNothing() {
        TalliedReply<Long> reply = new TalliedReply<>();
        Heard first = new Heard();
        Heard second = new Heard();

        assertThat(reply.listen(first)).isTrue();
        assertThat(reply.listen(second)).isFalse();
        reply.complete(1L);

        assertThat(first.times).hasValue(1);
        assertThat(second.times).hasValue(0);
    }

    @Test
    void dependentsRunAsForAnyStage() {
        TalliedReply<Long> reply = new TalliedReply<>();
        reply.listen(new Heard());
        CompletableFuture<Long> doubled = reply.thenApply(v -> v * 2);
        reply.complete(21L);

        assertThat(doubled).isCompletedWithValue(42L);
        assertThat(doubled).isNotInstanceOf(TalliedReply.class);
    }

    @Test
    void aListenerThatListensWhileTheReplyCompletesIsToldOnce() {
        TalliedReply<Long> reply = new TalliedReply<>();
        Heard heard = new Heard();
        // a dependent runs inside complete(), after the value is set and before the reply tells its listener
        reply.thenRun(() -> reply.listen(heard));

        reply.complete(5L);

        assertThat(heard.times).hasValue(1);
        assertThat(heard.outcome).hasValue(5L);
    }
}
