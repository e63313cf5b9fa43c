package io.redlock.internal.locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.RedlockException;
import io.redlock.RedlockInterruptedException;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class BlockingTest {

    @Test
    void returnsTheValue() {
        assertThat(Blocking.await(CompletableFuture.completedFuture("x"), "op")).isEqualTo("x");
    }

    @Test
    void rethrowsUncheckedFailuresUnchanged() {
        RedlockException failure = new RedlockException("boom");
        assertThatThrownBy(() -> Blocking.await(CompletableFuture.failedFuture(failure), "op")).isSameAs(failure);
    }

    @Test
    void wrapsCheckedFailuresInARedlockException() {
        assertThatThrownBy(() -> Blocking.await(CompletableFuture.failedFuture(new IOException("io")), "op"))
                .isInstanceOf(RedlockException.class).hasCauseInstanceOf(IOException.class);
    }

    @Test
    void interruptCancelsTheStageAndKeepsTheFlag() {
        CompletableFuture<String> never = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> Blocking.await(never, "acquire x"))
                    .isInstanceOf(RedlockInterruptedException.class).hasMessageContaining("acquire x");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            assertThat(never).isCancelled();
        } finally {
            Thread.interrupted();
        }
    }
}
