package io.redlock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.output.IntegerOutput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ScriptBatchTest {

    private static final ScriptCall RELEASE = new ScriptCall(Scripts.RELEASE, new String[] {"a", "a:waiters"},
            new String[] {"v1", "r:v1", "1", "a:released"}, new CompletableFuture<>(), true);
    private static final ScriptCall EXTEND = new ScriptCall(Scripts.EXTEND, new String[] {"zürich"},
            new String[] {"v2", "5000"}, new CompletableFuture<>(), false);

    @Test
    void oneCallIsAnEvalshaOfItsOwnScriptWithItsKeysAndArgs() {
        assertThat(encode(ScriptCommand.single(EXTEND, true, false, new IntegerOutput<>(ExactUtf8Codec.INSTANCE))))
                .isEqualTo(resp("EVALSHA", Scripts.EXTEND.sha(), "1", "zürich", "v2", "5000"));
    }

    @Test
    void aBatchCarriesEveryCallsKeysThenTheCountEachCallsScriptAndSizesThenEveryCallsArgs() {
        String release = Integer.toString(Scripts.ALL.indexOf(Scripts.RELEASE) + 1);
        String extend = Integer.toString(Scripts.ALL.indexOf(Scripts.EXTEND) + 1);
        assertThat(encode(ScriptCommand.batch(List.of(RELEASE, EXTEND), true, false, new BatchOutput())))
                .isEqualTo(resp("EVALSHA", Scripts.BATCH.sha(), "3", "a", "a:waiters", "zürich",
                        "2", release, "2", "4", extend, "1", "2",
                        "v1", "r:v1", "1", "a:released", "v2", "5000"));
    }

    @Test
    void withoutTheShaTheScriptTextIsSent() {
        String text = Scripts.BATCH.text();
        assertThat(encode(ScriptCommand.batch(List.of(RELEASE, EXTEND), false, false, new BatchOutput())))
                .startsWith("*19\r\n$4\r\nEVAL\r\n$" + text.getBytes(StandardCharsets.UTF_8).length + "\r\n" + text
                        + "\r\n$1\r\n3\r\n$1\r\na\r\n");
    }

    @Test
    void theBatchScriptCarriesEachScriptOnceInTheOrderOfAll() {
        String text = Scripts.BATCH.text();
        int at = 0;
        for (Script script : Scripts.ALL) {
            int found = text.indexOf(script.text(), at);
            assertThat(found).as(script.name()).isGreaterThanOrEqualTo(at);
            assertThat(text.indexOf(script.text(), found + 1)).as(script.name() + " twice").isNegative();
            at = found + script.text().length();
        }
        assertThat(text).contains(Script.load("batch").text());
        assertThat(Scripts.LOADED).contains(Scripts.BATCH);
    }

    @Test
    void anIntegerElementIsTheCallsReplyAndAStringIsTheErrorTheNodeGaveForIt() {
        BatchOutput replies = new BatchOutput();
        replies.multi(2);
        replies.set(7L);
        replies.set(ByteBuffer.wrap("ERR value is not an integer".getBytes(StandardCharsets.UTF_8)));
        assertThat(ScriptBatch.replyOf(replies, 2, 0)).isEqualTo(7L);
        assertThat(ScriptBatch.replyOf(replies, 2, 1)).isInstanceOf(RedisCommandExecutionException.class)
                .hasToString(RedisCommandExecutionException.class.getName() + ": ERR value is not an integer");
        assertThat(ScriptBatch.replyOf(replies, 3, 0)).as("a reply of the wrong length")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void numbersAreWrittenAsTheirDigits() {
        for (long n : new long[] {0, 7, 10, 99, 100, 12345, Long.MAX_VALUE}) {
            ByteBuf out = Unpooled.buffer();
            Resp.decimal(out, n);
            assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo(Long.toString(n));
            assertThat(Resp.digits(n)).isEqualTo(Long.toString(n).length());
        }
    }

    private static String encode(ScriptCommand<?> command) {
        ByteBuf out = Unpooled.buffer();
        command.encode(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The RESP array of bulk strings {@code parts}, as Redis reads a command. */
    private static String resp(String... parts) {
        StringBuilder resp = new StringBuilder("*").append(parts.length).append("\r\n");
        for (String part : parts) {
            resp.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part)
                    .append("\r\n");
        }
        return resp.toString();
    }
}
