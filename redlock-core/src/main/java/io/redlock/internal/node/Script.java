package io.redlock.internal.node;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A Lua script with its SHA-1, run by EVALSHA with a fallback to EVAL when the server does not know it: its text is
 * the rules it uses (scripts of their own that define functions, written once and shared), then its body.
 *
 * @param rules the scripts of rules in front of the body, in order; none for a script of one piece
 * @param body  what it does, with the rules' functions in scope
 * @param text  the rules' texts, then the body: what EVAL runs
 */
public record Script(String name, List<Script> rules, String body, String text, String sha) {

    public Script {
        rules = List.copyOf(rules);
    }

    /** The script in the resource {@code lua/<name>.lua} next to {@code owner}; fails at once if it is missing. */
    public static Script load(Class<?> owner, String name) {
        String resource = "lua/" + name + ".lua";
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + resource);
            }
            return of(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script resource " + resource, e);
        }
    }

    /** A script of one piece, no rules. */
    public static Script of(String name, String text) {
        return withRules(name, List.of(), text);
    }

    /** The script {@code body} behind the texts of {@code rules}, in that order. */
    public static Script withRules(String name, List<Script> rules, String body) {
        StringBuilder text = new StringBuilder();
        rules.forEach(rule -> text.append(rule.text()));
        String full = text.append(body).toString();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(full.getBytes(StandardCharsets.UTF_8));
            return new Script(name, rules, body, full, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", e);
        }
    }

    /**
     * Runs the script: EVALSHA, and EVAL if the server answers NOSCRIPT (a restarted server has no scripts). A
     * command that cannot be dispatched yields a failed stage rather than an exception.
     */
    public <T> CompletionStage<T> run(RedisAsyncCommands<String, String> redis, ScriptOutputType type, String[] keys,
            String... args) {
        return dispatch(() -> redis.<T>evalsha(sha, type, keys, args))
                .handle((result, failure) -> failure == null ? CompletableFuture.completedFuture(result)
                        : Failures.unwrap(failure) instanceof RedisNoScriptException
                                ? dispatch(() -> redis.<T>eval(text, type, keys, args))
                                : CompletableFuture.<T>failedFuture(failure))
                .thenCompose(Function.identity());
    }

    private static <T> CompletionStage<T> dispatch(java.util.function.Supplier<? extends CompletionStage<T>> command) {
        try {
            return command.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
