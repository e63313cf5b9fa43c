package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExactUtf8CodecTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "orders:42", "zürich", "日本語のキー", "lock-🔒-emoji", "mixed ü 日 🔒 ascii"})
    void writesExactlyTheUtf8BytesItEstimates(String text) {
        ByteBuf target = Unpooled.buffer();
        ExactUtf8Codec.INSTANCE.encodeKey(text, target);
        byte[] written = new byte[target.readableBytes()];
        target.readBytes(written);

        byte[] expected = text.getBytes(StandardCharsets.UTF_8);
        assertThat(written).isEqualTo(expected);
        assertThat(ExactUtf8Codec.INSTANCE.estimateSize(text)).isEqualTo(expected.length);
        assertThat(ExactUtf8Codec.INSTANCE.isEstimateExact()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"value", "zürich", "lock-🔒-emoji"})
    void decodesWhatItEncodes(String text) {
        ByteBuf target = Unpooled.buffer();
        ExactUtf8Codec.INSTANCE.encodeValue(text, target);
        assertThat(ExactUtf8Codec.INSTANCE.decodeValue(target.nioBuffer())).isEqualTo(text);
        assertThat(ExactUtf8Codec.INSTANCE.decodeKey(ExactUtf8Codec.INSTANCE.encodeKey(text))).isEqualTo(text);
    }
}
