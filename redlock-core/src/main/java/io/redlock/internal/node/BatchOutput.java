package io.redlock.internal.node;

import io.lettuce.core.output.CommandOutput;
import java.nio.ByteBuffer;

/**
 * The batch script's reply, one element per call: an integer (the call's reply) or a string (the error the node gave
 * for that call). Kept in a {@code long[]} without boxing; errors, rare, in a lazily made array.
 */
final class BatchOutput extends CommandOutput<String, String, BatchOutput> {

    private long[] values = new long[0];
    private String[] errors;
    private int next;

    BatchOutput() {
        super(ExactUtf8Codec.INSTANCE, null);
        output = this;
    }

    @Override
    public void multi(int count) {
        if (count > values.length) {
            values = new long[count];
        }
    }

    @Override
    public void set(long integer) {
        if (next < values.length) {
            values[next] = integer;
        }
        next++;
    }

    @Override
    public void set(ByteBuffer bytes) {
        if (next < values.length) {
            if (errors == null) {
                errors = new String[values.length];
            }
            errors[next] = bytes == null ? "ERR no reply for this call" : decodeString(bytes);
        }
        next++;
    }

    /** How many elements the reply had. */
    int size() {
        return next;
    }

    /** Element {@code index}: its integer, or null if it is an error. */
    Long value(int index) {
        return errors != null && errors[index] != null ? null : values[index];
    }

    /** Element {@code index}'s error, or null. */
    String error(int index) {
        return errors == null ? null : errors[index];
    }
}
