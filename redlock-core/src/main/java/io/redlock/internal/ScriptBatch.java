package io.redlock.internal;

import io.lettuce.core.RedisCommandExecutionException;
import java.util.ArrayList;
import java.util.List;

/**
 * Many {@link ScriptCall}s to one node as one call of {@link Scripts#BATCH}: the batch script runs the scripts of
 * {@link Scripts#ALL} one after the other, each on its own keys and args, and answers one element per call. Its text
 * is built from the scripts themselves ({@link #opsTable}), so each operation's Lua is written once.
 */
final class ScriptBatch {

    /** At most this many calls in one batch, so one batch never holds a node for long (about 5 µs a call). */
    static final int MAX_CALLS = 32;

    private static final String[] SMALL = new String[64];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = Integer.toString(i);
        }
    }

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

    /** Whether {@code script} can go in a batch. */
    static boolean carries(Script script) {
        return Scripts.ALL.contains(script);
    }

    /** The batch script's keys: every call's keys, in order. */
    static String[] keys(List<ScriptCall> calls) {
        int count = 0;
        for (ScriptCall call : calls) {
            count += call.keys().length;
        }
        String[] keys = new String[count];
        int at = 0;
        for (ScriptCall call : calls) {
            System.arraycopy(call.keys(), 0, keys, at, call.keys().length);
            at += call.keys().length;
        }
        return keys;
    }

    /** The batch script's args: the count, each call's script, key count and arg count, then every call's args. */
    static String[] args(List<ScriptCall> calls) {
        int count = 1 + 3 * calls.size();
        for (ScriptCall call : calls) {
            count += call.args().length;
        }
        String[] args = new String[count];
        args[0] = number(calls.size());
        int at = 1;
        for (ScriptCall call : calls) {
            args[at++] = number(Scripts.ALL.indexOf(call.script()) + 1);
            args[at++] = number(call.keys().length);
            args[at++] = number(call.args().length);
        }
        for (ScriptCall call : calls) {
            System.arraycopy(call.args(), 0, args, at, call.args().length);
            at += call.args().length;
        }
        return args;
    }

    /** Call {@code index}'s reply from the batch's: its integer, or the error the node gave for it. */
    static Object replyOf(List<Object> replies, int index) {
        if (replies == null || replies.size() <= index) {
            return new IllegalStateException("the batch reply has no element " + index + ": " + replies);
        }
        Object reply = replies.get(index);
        if (reply instanceof Long) {
            return reply;
        }
        return new RedisCommandExecutionException(String.valueOf(reply));
    }

    private static String number(int n) {
        return n < SMALL.length ? SMALL[n] : Integer.toString(n);
    }

    /** A fresh list for a run of calls. */
    static List<ScriptCall> newRun() {
        return new ArrayList<>(MAX_CALLS);
    }
}
