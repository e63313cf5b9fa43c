package io.redlock.internal.node;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.ByteBuffer;

/**
 * UTF-8 strings, written straight into the outgoing buffer. Lettuce's {@link StringCodec#UTF8} only estimates a
 * string's encoded size, so Lettuce encodes every key and value into a temporary pooled buffer first and copies it;
 * this codec computes the exact size (one pass over the chars, no allocation) and lets Lettuce write the bytes in
 * place. Decoding is {@link StringCodec#UTF8}'s. Stateless and thread-safe.
 */
final class ExactUtf8Codec implements RedisCodec<String, String>, ToByteBufEncoder<String, String> {

    static final ExactUtf8Codec INSTANCE = new ExactUtf8Codec();

    private static final StringCodec DECODER = StringCodec.UTF8;

    private ExactUtf8Codec() {
    }

    @Override
    public String decodeKey(ByteBuffer bytes) {
        return DECODER.decodeKey(bytes);
    }

    @Override
    public String decodeValue(ByteBuffer bytes) {
        return DECODER.decodeValue(bytes);
    }

    @Override
    public ByteBuffer encodeKey(String key) {
        return DECODER.encodeKey(key);
    }

    @Override
    public ByteBuffer encodeValue(String value) {
        return DECODER.encodeValue(value);
    }

    @Override
    public void encodeKey(String key, ByteBuf target) {
        write(key, target);
    }

    @Override
    public void encodeValue(String value, ByteBuf target) {
        write(value, target);
    }

    @Override
    public int estimateSize(Object keyOrValue) {
        return keyOrValue == null ? 0 : ByteBufUtil.utf8Bytes((CharSequence) keyOrValue);
    }

    @Override
    public boolean isEstimateExact() {
        return true;
    }

    private static void write(String text, ByteBuf target) {
        if (text != null) {
            ByteBufUtil.writeUtf8(target, text);
        }
    }
}
