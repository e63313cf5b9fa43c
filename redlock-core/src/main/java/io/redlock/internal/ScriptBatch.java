package io.redlock.internal;

import io.lettuce.core.RedisCommandExecutionException;
import java.util.ArrayList;
import java.util.List;

/**
 * Many {@link ScriptCall}s to one node as one call of {@link Scripts#BATCH}: the batch script runs the scripts of
 * {@link Scripts#ALL} one after the other, each on its own keys and args, and answers one element per call. Its text
 * is built from the scripts themselves ({@link #opsTable}), so each operation's Lua is written once. The command's
 * KEYS are every call's keys in order; its ARGV the number of calls, each call's script ({@link #indexOf}), key count
 * and arg count, then every call's args ({@link ScriptCommand} writes them).
 */
final class ScriptBatch {

    /** At most this many calls in one batch, so one batch never holds a node for long (about 5 µs a call). */
    static final int MAX_CALLS = 32;

    private ScriptBatch() {
    }

    /** {@code local ops = { function(KEYS, ARGV) <script> end, … }}, in the order of {@code scripts}. */
    static String opsTable(List<Script> scripts) {
        StringBuilder lua = new StringBuilder("local ops = {\n");
        for (Script script : scripts) {
            lua.append("function(KEYS, ARGV)\n").append(script.text()).append("\nend,\n");
        }
        return lua.append("}\n").toString();
    }

    /** The batch script's number for {@code script}: its place in {@link Scripts#ALL}, from 1 (a Lua index). */
    static int indexOf(Script script) {
        return Scripts.ALL.indexOf(script) + 1;
    }

    /** Call {@code index}'s reply from the batch's: its integer ({@link Long}), or the error for it. */
    static Object replyOf(BatchOutput replies, int calls, int index) {
        if (replies.size() != calls) {
            return new IllegalStateException("a batch of " + calls + " calls got " + replies.size() + " replies");
        }
        Long value = replies.value(index);
        return value != null ? value : new RedisCommandExecutionException(replies.error(index));
    }

    /** A fresh list for a run of calls. */
    static List<ScriptCall> newRun() {
        return new ArrayList<>(MAX_CALLS);
    }
}
