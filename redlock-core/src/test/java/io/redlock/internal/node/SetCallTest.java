package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SetCallTest {

    @Test
    void theAcquireWithoutFencingIsOneSetNxPxAsRedisReadsIt() {
        ByteBuf out = Unpooled.buffer();
        new SetCall(null, "zürich", "v1", 30_000).command(false).encode(out);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
                "*6\r\n$3\r\nSET\r\n$7\r\nzürich\r\n$2\r\nv1\r\n$2\r\nNX\r\n$2\r\nPX\r\n$5\r\n30000\r\n");
    }
}
