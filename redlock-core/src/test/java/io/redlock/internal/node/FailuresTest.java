package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.redlock.NodeFailure;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Which node failures retrying can fix (empty result) and which it cannot (typed exception). */
class FailuresTest {

    private final Redaction redaction = Redaction.of(List.of(RedisURI.create("redis://:pw-123@h:1")));

    @Test
    void refusedConnectionsAndDisconnectsAreUnavailable() {
        assertThat(Failures.kind(new RedisConnectionException("Unable to connect",
                new ConnectException("Connection refused")))).isEqualTo(NodeFailure.Kind.UNAVAILABLE);
        assertThat(Failures.kind(new RedisException("Currently not connected. Commands are rejected.")))
                .isEqualTo(NodeFailure.Kind.UNAVAILABLE);
        assertThat(Failures.kind(new NodeUnavailableException("h:1 not connected", null)))
                .isEqualTo(NodeFailure.Kind.UNAVAILABLE);
    }

    @Test
    void aLoadingNodeIsUnavailableNotBroken() {
        assertThat(Failures.kind(new RedisCommandExecutionException("LOADING Redis is loading the dataset")))
                .isEqualTo(NodeFailure.Kind.UNAVAILABLE);
        assertThat(Failures.kind(new RedisCommandExecutionException("BUSY Redis is busy running a script")))
                .isEqualTo(NodeFailure.Kind.UNAVAILABLE);
    }

    @Test
    void statesThatPassAreUnavailableAndNamed() {
        for (String reply : List.of("OOM command not allowed when used memory > 'maxmemory'.",
                "READONLY You can't write against a read only replica.",
                "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.",
                "LOADING Redis is loading the dataset in memory", "BUSY Redis is busy running a script.",
                "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
                "TRYAGAIN Multiple keys request during rehashing of slot", "CLUSTERDOWN The cluster is down",
                "NOREPLICAS Not enough good replicas to write.")) {
            assertThat(Failures.kind(new RedisCommandExecutionException(reply))).as(reply)
                    .isEqualTo(NodeFailure.Kind.UNAVAILABLE);
            assertThat(Failures.state(reply)).as(reply).contains(reply.substring(0, reply.indexOf(' ')));
        }
    }

    @Test
    void aStateInsideAScriptErrorOfOlderRedisIsStillAState() {
        String redis7 = "OOM command not allowed when used memory > 'maxmemory'. script: d045cb5f, on @user_script:22.";
        String redis6 = "ERR Error running script (call to f_d045cb5f): @user_script:22: @user_script: 22: -OOM command"
                + " not allowed when used memory > 'maxmemory'.";
        String readonly6 = "ERR Error running script (call to f_d045cb5f): @user_script:22: -READONLY You can't write"
                + " against a read only replica.";
        assertThat(Failures.state(redis7)).contains("OOM");
        assertThat(Failures.state(redis6)).contains("OOM");
        assertThat(Failures.state(readonly6)).contains("READONLY");
        assertThat(Failures.kind(new RedisCommandExecutionException(redis6))).isEqualTo(NodeFailure.Kind.UNAVAILABLE);
    }

    @Test
    void aStateInsideABatchedOperationIsTheSameStateAsAlone() {
        // what batch.lua returns for an operation whose write failed, as redis-server 7.0.15 and 6.2.6 raise it
        String redis7 = "OOM command not allowed when used memory > 'maxmemory'.";
        String redis6 = "@user_script: 1: -OOM command not allowed when used memory > 'maxmemory'.";
        for (String batched : List.of(redis7, redis6)) {
            assertThat(Failures.state(batched)).as(batched).contains("OOM");
            assertThat(Failures.kind(new RedisCommandExecutionException(batched))).as(batched)
                    .isEqualTo(NodeFailure.Kind.UNAVAILABLE);
        }
        String failingOperation = "user_script:3: attempt to compare nil with number";
        assertThat(Failures.kind(new RedisCommandExecutionException(failingOperation)))
                .isEqualTo(NodeFailure.Kind.ERROR);
    }

    @Test
    void errorsRetryingCannotFixAreErrors() {
        for (String reply : List.of("WRONGPASS invalid username-password pair or user is disabled.",
                "NOAUTH Authentication required.", "NOPERM this user has no permissions to run the 'evalsha' command",
                "ERR unknown command 'evalsha', with args beginning with:",
                "ERR Error running script (call to f_d045cb5f): @user_script:3: user_script:3: attempt to compare nil",
                "WRONGTYPE Operation against a key holding the wrong kind of value",
                "ERR user_script:1: Script attempted to access nonexistent global variable 'x'")) {
            assertThat(Failures.kind(new RedisCommandExecutionException(reply))).as(reply)
                    .isEqualTo(NodeFailure.Kind.ERROR);
            assertThat(Failures.state(reply)).as(reply).isEmpty();
        }
    }

    @Test
    void authenticationAndPermissionErrorsAreErrorsEvenWhenWrappedInAConnectionFailure() {
        RedisConnectionException wrongPassword = new RedisConnectionException("Unable to connect to h:1",
                new RedisCommandExecutionException("WRONGPASS invalid username-password pair"));
        assertThat(Failures.kind(new CompletionException(wrongPassword))).isEqualTo(NodeFailure.Kind.ERROR);
        assertThat(Failures.kind(new NodeUnavailableException("h:1 not connected", wrongPassword)))
                .isEqualTo(NodeFailure.Kind.ERROR);
        assertThat(Failures.kind(new RedisCommandExecutionException("NOPERM this user has no permissions")))
                .isEqualTo(NodeFailure.Kind.ERROR);
    }

    @Test
    void timeoutsAreTimeouts() {
        assertThat(Failures.kind(new RedisCommandTimeoutException("Command timed out")))
                .isEqualTo(NodeFailure.Kind.TIMEOUT);
        NodeFailure failure = Failures.timeout("h:1", Duration.ofMillis(50).toNanos());
        assertThat(failure.kind()).isEqualTo(NodeFailure.Kind.TIMEOUT);
        assertThat(failure.reason()).contains("50 ms");
    }

    @Test
    void unexpectedExceptionsAreErrorsSoTheyAreNotHidden() {
        assertThat(Failures.kind(new IllegalStateException("bug"))).isEqualTo(NodeFailure.Kind.ERROR);
    }

    @Test
    void reasonsCarryTheRootCauseWithoutPasswords() {
        NodeFailure failure = Failures.of("h:1", new CompletionException(new RedisConnectionException(
                "Unable to connect to redis://:pw-123@h:1", new ConnectException("Connection refused"))), redaction);
        assertThat(failure.node()).isEqualTo("h:1");
        assertThat(failure.reason()).contains("Unable to connect").contains("Connection refused")
                .doesNotContain("pw-123");
    }
}
