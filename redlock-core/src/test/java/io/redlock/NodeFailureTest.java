package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.NodeFailure.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeFailureTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ERROR       | WRONGPASS invalid username-password pair or user is disabled.                    | true",
        "ERROR       | not connected: NOAUTH HELLO must be called with the client already authenticated | true",
        "ERROR       | NOPERM User app has no permissions to run the 'evalsha' command                 | true",
        "ERROR       | @user_script: 1: -NOPERM this user has no permissions to access the 'x' key     | true",
        "UNAVAILABLE | not connected: WRONGPASS invalid username-password pair                          | false",
        "ERROR       | WRONGTYPE Operation against a key holding the wrong kind of value                | false",
        "ERROR       | ERR unknown command 'FCALL'                                                      | false",
        "UNAVAILABLE | OOM command not allowed when used memory > 'maxmemory'.                          | false",
        "TIMEOUT     | no reply within 50 ms (the command may still have been applied)                  | false",
    })
    void accessIsRefusedOnlyByAnErrorNamingCredentialsOrPermissions(Kind kind, String reason, boolean refused) {
        assertThat(new NodeFailure("127.0.0.1:6379", kind, reason).accessRefused()).isEqualTo(refused);
    }
}
