package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void namesANodeByHostAndPortOnly() {
        assertThat(Redaction.nodeName(RedisURI.create("redis://user:s3cret@10.0.0.7:6380/3"))).isEqualTo("10.0.0.7:6380");
        assertThat(Redaction.nodeName(RedisURI.create("redis-sentinel://:pw@s1:26379,s2:26379#mymaster")))
                .isEqualTo("sentinel:mymaster@s1:26379,s2:26379");
    }

    @Test
    void masksUserInfoInUriStrings() {
        assertThat(Redaction.maskUri("redis://user:s3cret@host:6379")).isEqualTo("redis://***@host:6379");
        assertThat(Redaction.maskUri("rediss://:s3cret@host")).isEqualTo("rediss://***@host");
        assertThat(Redaction.maskUri("redis://host:6379")).isEqualTo("redis://host:6379");
    }

    @Test
    void scrubsKnownPasswordsFromAnyText() {
        Redaction redaction = Redaction.of(List.of(RedisURI.create("redis://:s3cret@h1:1"),
                RedisURI.create("redis://h2:2")));
        assertThat(redaction.scrub("AUTH s3cret failed for redis://:s3cret@h1:1"))
                .isEqualTo("AUTH *** failed for redis://***@h1:1");
        assertThat(redaction.scrub(null)).isEmpty();
    }
}
