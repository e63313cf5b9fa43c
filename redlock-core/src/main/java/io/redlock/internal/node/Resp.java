package io.redlock.internal.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Writes RESP (the Redis protocol) straight into Netty's buffer: array headers, and bulk strings from UTF-8 text or
 * from numbers, with no object per argument and no string per length.
 */
final class Resp {

    private static final short CRLF = ('\r' << 8) | '\n';

    private Resp() {
    }

    /** {@code *<count>\r\n}: an array of {@code count} elements follows. */
    static void arrayHeader(ByteBuf out, int count) {
        out.writeByte('*');
        decimal(out, count);
        out.writeShort(CRLF);
    }

    /** {@code $<length>\r\n<text as UTF-8>\r\n}. */
    static void bulk(ByteBuf out, String text) {
        int length = ByteBufUtil.utf8Bytes(text);
        bulkHeader(out, length);
        out.ensureWritable(length + 2);
        ByteBufUtil.reserveAndWriteUtf8(out, text, length);
        bulkEnd(out);
    }

    /** {@code $<length>\r\n}: a bulk string of {@code length} bytes follows, then {@link #bulkEnd}. */
    static void bulkHeader(ByteBuf out, int length) {
        out.writeByte('$');
        decimal(out, length);
        out.writeShort(CRLF);
    }

    /** The {@code \r\n} after a bulk string's bytes. */
    static void bulkEnd(ByteBuf out) {
        out.writeShort(CRLF);
    }

    /** A number as a bulk string: {@code $<digits>\r\n<number>\r\n}. */
    static void bulk(ByteBuf out, long number) {
        bulkHeader(out, digits(number));
        decimal(out, number);
        bulkEnd(out);
    }

    /** The ASCII digits of a number that is not negative (every count and length is). */
    static void decimal(ByteBuf out, long number) {
        int count = digits(number);
        int at = out.writerIndex();
        out.ensureWritable(count);
        for (int i = count - 1; i >= 0; i--) {
            out.setByte(at + i, (int) ('0' + number % 10));
            number /= 10;
        }
        out.writerIndex(at + count);
    }

    /** How many digits {@link #decimal} writes for {@code number} (not negative). */
    static int digits(long number) {
        if (number < 0) {
            throw new IllegalArgumentException("negative: " + number);
        }
        int count = 1;
        for (long rest = number / 10; rest > 0; rest /= 10) {
            count++;
        }
        return count;
    }
}
