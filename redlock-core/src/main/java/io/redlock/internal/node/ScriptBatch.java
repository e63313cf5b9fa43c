package io.redlock.internal.node;

import io.lettuce.core.RedisCommandExecutionException;
import java.util.ArrayList;
import java.util.List;

/**
 * The scripts a node runs, and the batch script that runs many {@link ScriptCall}s of them to one node as one call:
 * it runs them one after the other, each on its own keys and args, and answers one element per call. Its text is the
 * scripts themselves ({@link #opsFunction}) in front of {@code lua/batch.lua}, so each operation's Lua is written
 * once; the rules they use come once, in front of them all, so that a batch defines their functions once rather than
 * once per operation, and the scripts are the branches of one function, so that a batch defines one function for
 * them all rather than one each.
 * The command's KEYS are every call's keys in order; its ARGV the plan, then every call's args: the plan is one
 * string of {@link #PLAN_BYTES} bytes per call, its script ({@link #indexOf}), key count and arg count, so the batch
 * reads them with {@code string.byte} rather than a number's conversion per count ({@link ScriptCommand} writes it).
 *
 * @param scripts the scripts, in the batch's order
 * @param script  the batch script
 */
public record ScriptBatch(List<Script> scripts, Script script) {

    /**
     * At most this many calls in one batch, so one batch never holds a node for long (about 2.5 µs a call on the
     * benchmark's machine: a batch of 64 about 160 µs).
     */
    static final int MAX_CALLS = 64;
    /** The plan's bytes per call: its script, key count and arg count. */
    static final int PLAN_BYTES = 3;
    /** The most scripts, keys of a call or args of a call a plan's byte can say. */
    public static final int MOST_IN_A_PLAN_BYTE = 255;

    public ScriptBatch {
        scripts = List.copyOf(scripts);
        if (scripts.size() > MOST_IN_A_PLAN_BYTE) {
            throw new IllegalArgumentException("a batch carries at most " + MOST_IN_A_PLAN_BYTE + " scripts, not "
                    + scripts.size());
        }
    }

    /** The batch of {@code scripts}, in that order: {@code lua/batch.lua} behind the function of the scripts. */
    public static ScriptBatch of(List<Script> scripts) {
        return new ScriptBatch(scripts, Script.of("batch", opsFunction(scripts) + Script.load(ScriptBatch.class, "batch")
                .text()));
    }

    /** What a connection loads when it opens: the scripts and the batch that carries them. */
    List<Script> loaded() {
        List<Script> loaded = new ArrayList<>(scripts);
        loaded.add(script);
        return loaded;
    }

    /**
     * Fails unless a run of {@code script} on {@code keys} and {@code args} can share a batch: the script is one of
     * the batch's, and the plan's bytes can say its key and arg counts.
     */
    void check(Script script, String[] keys, String[] args) {
        if (!scripts.contains(script)) {
            throw new IllegalArgumentException(script.name() + " is not one of the batched scripts");
        }
        if (keys.length > MOST_IN_A_PLAN_BYTE || args.length > MOST_IN_A_PLAN_BYTE) {
            throw new IllegalArgumentException(script.name() + " with " + keys.length + " keys and " + args.length
                    + " args: a batched run takes at most " + MOST_IN_A_PLAN_BYTE + " of each");
        }
    }

    /**
     * The rules every script uses, each once, then {@code local function op(script, KEYS, ARGV)} whose branch
     * {@code script == i} is the body of the i-th of {@code scripts} (from 1, {@link #indexOf}).
     */
    static String opsFunction(List<Script> scripts) {
        StringBuilder lua = new StringBuilder();
        scripts.stream().flatMap(script -> script.rules().stream()).distinct().forEach(rule -> lua.append(rule.text()));
        lua.append("local function op(script, KEYS, ARGV)\n");
        for (int i = 0; i < scripts.size(); i++) {
            lua.append(i == 0 ? "if" : "elseif").append(" script == ").append(i + 1).append(" then\n")
                    .append(scripts.get(i).body()).append('\n');
        }
        return lua.append("end\nend\n").toString();
    }

    /** The batch script's number for {@code call}: its place among the scripts, from 1 (a Lua index). */
    int indexOf(Script call) {
        return scripts.indexOf(call) + 1;
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
