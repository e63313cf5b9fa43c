package io.redlock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ScriptBatchTest {

    private static final ScriptCall RELEASE = new ScriptCall(Scripts.RELEASE, new String[] {"a", "a:waiters"},
            new String[] {"v1", "r:v1", "1", "a:released"}, new CompletableFuture<>());
    private static final ScriptCall EXTEND = new ScriptCall(Scripts.EXTEND, new String[] {"b"},
            new String[] {"v2", "5000"}, new CompletableFuture<>());

    @Test
    void theKeysAreEveryCallsKeysInOrder() {
        assertThat(ScriptBatch.keys(List.of(RELEASE, EXTEND))).containsExactly("a", "a:waiters", "b");
    }

    @Test
    void theArgsAreTheCountThenEachCallsScriptAndSizesThenEveryCallsArgs() {
        String release = Integer.toString(Scripts.ALL.indexOf(Scripts.RELEASE) + 1);
        String extend = Integer.toString(Scripts.ALL.indexOf(Scripts.EXTEND) + 1);
        assertThat(ScriptBatch.args(List.of(RELEASE, EXTEND))).containsExactly(
                "2", release, "2", "4", extend, "1", "2",
                "v1", "r:v1", "1", "a:released", "v2", "5000");
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
        List<Object> replies = List.of(7L, "ERR value is not an integer or out of range");
        assertThat(ScriptBatch.replyOf(replies, 0)).isEqualTo(7L);
        assertThat(ScriptBatch.replyOf(replies, 1)).isInstanceOf(RedisCommandExecutionException.class)
                .hasToString(RedisCommandExecutionException.class.getName()
                        + ": ERR value is not an integer or out of range");
        assertThat(ScriptBatch.replyOf(replies, 2)).isInstanceOf(IllegalStateException.class);
    }
}
