package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretsTest {

    @Test
    void masksTheUserInfoOfEveryUriInAText() {
        assertThat(Secrets.mask("redis://user:s3cret@host:6379")).isEqualTo("redis://***@host:6379");
        assertThat(Secrets.mask("rediss://:s3cret@host")).isEqualTo("rediss://***@host");
        assertThat(Secrets.mask("redis://host:6379/0")).isEqualTo("redis://host:6379/0");
        assertThat(Secrets.mask("bad 'redis://:a@b/c@h:1' and redis://:x/y@h2:2, done"))
                .isEqualTo("bad 'redis://***@h:1' and redis://***@h2:2, done");
        assertThat(Secrets.mask("redis-socket://:pw@/tmp/redis.sock")).isEqualTo("redis-socket://***@/tmp/redis.sock");
        assertThat(Secrets.mask(null)).isEmpty();
    }

    @Test
    void masksTheUserInfoOfNodeStringsWithoutASchemeOrWithABrokenOne() {
        assertThat(Secrets.mask("invalid 'admin:SuperSecret99@127.0.0.1:7805': Scheme admin not supported"))
                .isEqualTo("invalid '***@127.0.0.1:7805': Scheme admin not supported");
        assertThat(Secrets.mask("redis:/:pw@h:1 redis//:pw@h:1 redis:pw@ :s3cr%2Ft@h:1"))
                .isEqualTo("***@h:1 ***@h:1 ***@ ***@h:1");
        assertThat(Secrets.mask("For input string: \"x9@127.0.0.1:7805\""))
                .isEqualTo("For input string: \"***@127.0.0.1:7805\"");
        assertThat(Secrets.mask("cluster:redis://:a@h1|redis://:b@h2"))
                .isEqualTo("cluster:redis://***@h1|redis://***@h2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pw with space", "pw/slash", "pw@at", "pw\"quote", "pw:colon", "pw%percent",
        "abc def/ghi@jkl\"mno:pqr%stu", "p%41ss"})
    void knownPasswordsAreScrubbedRawDecodedAndEncoded(String password) {
        String encoded = URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20");
        for (String written : List.of(password, encoded)) {
            for (String uri : List.of("redis://:" + written + "@h:1", "redis://user:" + written + "@h:1",
                    "rediss://:" + written + "@h:1", "redis-socket://:" + written + "@/tmp/r.sock")) {
                Secrets secrets = Secrets.of(List.of("redis://other:1," + uri + ",redis://h3:3"));
                String tail = password.split("[^A-Za-z0-9]")[password.split("[^A-Za-z0-9]").length - 1];
                String text = "failed " + uri + " (password " + password + ", encoded " + encoded + ") '" + written
                        + "'; For input string: \"" + tail + "@h:1\"";
                assertThat(secrets.scrub(text)).as(uri).doesNotContain(password).doesNotContain(encoded)
                        .contains("failed ");
                if (tail.length() >= 3) { // shorter pieces would mangle ordinary words
                    assertThat(secrets.hide(text)).as(uri).doesNotContain("\"" + tail + "@");
                }
            }
        }
    }

    @Test
    void hidingReplacesOnlyKnownSecrets() {
        Secrets secrets = Secrets.of(List.of("redis://:hunter22@h:1"));
        assertThat(secrets.hide("e.g. redis://:PASSWORD@h2:6379, not hunter22"))
                .isEqualTo("e.g. redis://:PASSWORD@h2:6379, not ***");
    }

    @Test
    void aPieceOfAPasswordIsHiddenAsAWordButNotInsideALeaseValue() {
        Secrets secrets = Secrets.of(List.of("redis://:abcd/efgh@h:1"));
        assertThat(secrets.hide("For input string: \"efgh@h:1\", value xxefghyy, x-abcd-y, abcd"))
                .isEqualTo("For input string: \"***@h:1\", value xxefghyy, x-abcd-y, ***");
        assertThat(secrets.hide("redis://:abcd/efgh@h:1")).isEqualTo("redis://***@h:1");
    }

    @Test
    void textWithoutUrisHasNoSecretsAndShortOnesAreLeftAlone() {
        assertThat(Secrets.of(List.of("--ttl", "30s")).scrub("ttl 30s")).isEqualTo("ttl 30s");
        assertThat(Secrets.of(List.of("redis://:ab@h:1")).scrub("table ab")).isEqualTo("table ab");
    }

    @Test
    void passwordsGivenOnTheirOwnAreHiddenInTheSameForms() {
        Secrets secrets = Secrets.of(List.of("redis://:uri-pw@h:1")).withPasswords(
                java.util.Arrays.asList("pw with/slash", null, "", "ab"));
        assertThat(secrets.hide("a pw with/slash, pw%20with%2Fslash, uri-pw; lab ab"))
                .isEqualTo("a ***, ***, ***; lab ab");
        assertThat(secrets.scrub("failed at \"slash@h:1\" redis://u:x@h")).isEqualTo("failed at \"***@h:1\" redis://***@h");
        assertThat(Secrets.of(List.of()).withPasswords(List.of("s3cret")).scrub("oops s3cret")).isEqualTo("oops ***");
    }
}
