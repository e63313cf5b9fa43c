package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.output.IntegerOutput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptBatchTest {

    private static final Script DELETE = Script.of("delete", "return redis.call('del', KEYS[1])");
    private static final Script EXPIRE = Script.of("expire", "return redis.call('pexpire', KEYS[1], ARGV[2])");
    private static final ScriptBatch BATCH = ScriptBatch.of(List.of(DELETE, EXPIRE));

    private static final ScriptCall RELEASE = new ScriptCall(null, DELETE, new String[] {"a", "a:waiters"},
            new String[] {"v1", "r:v1", "1", "a:released"}, true);
    private static final ScriptCall EXTEND = new ScriptCall(null, EXPIRE, new String[] {"zürich"},
            new String[] {"v2", "5000"}, false);

    @Test
    void oneCallIsAnEvalshaOfItsOwnScriptWithItsKeysAndArgs() {
        assertThat(encode(ScriptCommand.single(EXTEND, true, false, new IntegerOutput<>(ExactUtf8Codec.INSTANCE))))
                .isEqualTo(resp("EVALSHA", EXPIRE.sha(), "1", "zürich", "v2", "5000"));
    }

    @Test
    void aBatchCarriesEveryCallsKeysThenThePlanOfEachCallsScriptAndSizesThenEveryCallsArgs() {
        assertThat(encode(ScriptCommand.batch(BATCH, List.of(RELEASE, EXTEND), true, false, new BatchOutput())))
                .isEqualTo(resp("EVALSHA", BATCH.script().sha(), "3", "a", "a:waiters", "zürich",
                        "\u0001\u0002\u0004\u0002\u0001\u0002",
                        "v1", "r:v1", "1", "a:released", "v2", "5000"));
    }

    @Test
    void thePlansBytesAreTheCountsUpToTheMostAByteSays() {
        String[] most = new String[ScriptBatch.MOST_IN_A_PLAN_BYTE];
        Arrays.fill(most, "x");
        ScriptCall large = new ScriptCall(null, DELETE, most, most, false);
        ByteBuf out = Unpooled.buffer();
        ScriptCommand.batch(BATCH, List.of(large, EXTEND), true, false, new BatchOutput()).encode(out);
        byte[] plan = {1, (byte) 255, (byte) 255, 2, 1, 2};
        String written = out.toString(StandardCharsets.ISO_8859_1);
        assertThat(written).contains("\r\n$6\r\n" + new String(plan, StandardCharsets.ISO_8859_1) + "\r\n");
        BATCH.check(DELETE, most, most);
    }

    @Test
    void aRunTheBatchCannotCarryIsRefusedBeforeItIsQueued() {
        String[] tooMany = new String[ScriptBatch.MOST_IN_A_PLAN_BYTE + 1];
        assertThatThrownBy(() -> BATCH.check(DELETE, tooMany, new String[] {"v"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("256 keys");
        assertThatThrownBy(() -> BATCH.check(DELETE, new String[] {"a"}, tooMany))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("256 args");
        assertThatThrownBy(() -> BATCH.check(Script.of("other", "return 1"), new String[] {"a"}, new String[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not one of the batched");
    }

    @Test
    void withoutTheShaTheScriptTextIsSent() {
        String text = BATCH.script().text();
        assertThat(encode(ScriptCommand.batch(BATCH, List.of(RELEASE, EXTEND), false, false, new BatchOutput())))
                .startsWith("*13\r\n$4\r\nEVAL\r\n$" + text.getBytes(StandardCharsets.UTF_8).length + "\r\n" + text
                        + "\r\n$1\r\n3\r\n$1\r\na\r\n");
    }

    @Test
    void theBatchScriptCarriesEachScriptOnceInItsOrderBeforeItsOwnLua() {
        String text = BATCH.script().text();
        int at = 0;
        for (Script script : BATCH.scripts()) {
            int found = text.indexOf(script.text(), at);
            assertThat(found).as(script.name()).isGreaterThanOrEqualTo(at);
            assertThat(text.indexOf(script.text(), found + 1)).as(script.name() + " twice").isNegative();
            at = found + script.text().length();
        }
        assertThat(text).endsWith(Script.load(ScriptBatch.class, "batch").text());
        assertThat(BATCH.loaded()).containsExactly(DELETE, EXPIRE, BATCH.script());
        assertThat(BATCH.indexOf(EXPIRE)).as("a Lua index").isEqualTo(2);
    }

    @Test
    void theRulesOfTheBatchedScriptsComeOnceInFrontOfOneFunctionWhoseBranchesAreTheirBodies() {
        Script counter = Script.of("counter", "local function bump(key) return redis.call('incr', key) end\n");
        Script clock = Script.of("clock", "local function now() return redis.call('time')[1] end\n");
        Script grant = Script.withRules("grant", List.of(counter, clock), "return bump(KEYS[1])");
        Script commit = Script.withRules("commit", List.of(counter), "return bump(KEYS[1]) + now()");
        String text = ScriptBatch.of(List.of(grant, commit, DELETE)).script().text();
        assertThat(grant.text()).isEqualTo(counter.text() + clock.text() + grant.body());
        assertThat(text).startsWith(counter.text() + clock.text() + "local function op(script, KEYS, ARGV)\n");
        assertThat(text.split("local function bump", -1)).as("the counter's rule once").hasSize(2);
        assertThat(text).contains("if script == 1 then\n" + grant.body() + "\n"
                + "elseif script == 2 then\n" + commit.body() + "\n"
                + "elseif script == 3 then\n" + DELETE.body() + "\nend\nend\n");
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
