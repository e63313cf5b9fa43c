package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.AclSetuserArgs;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Passwords never reach stdout, stderr, JSON or picocli's messages: every command, every URI form, every awkward
 * character, percent-encoded or not. The matrix runs in-process (a JVM per case would take minutes); one case per
 * command runs as a separate process, with its logging, as a user would.
 */
@WithRedisNodes(3)
class SecretsIT {

    /** Two halves no lease value, port or node name will contain by chance. */
    private static final String LEFT = "Sx9q";
    private static final String RIGHT = "Wm4z";
    private static final List<String> AWKWARD = List.of(" ", "/", "@", "\"", ":", "%", " /@\":%");

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Every URI form with {@code password} as written: with and without a user, TLS, a socket, well-formed or not. */
    private static List<String> uris(String password, RedisNodes nodes) {
        String address = nodes.node(0).address();
        return List.of("redis://:" + password + "@" + address, "redis://app:" + password + "@" + address,
                "rediss://:" + password + "@127.0.0.1:1", "redis-socket://:" + password + "@/nonexistent/redis.sock");
    }

    /** Every command, with the secret where that command would read it. */
    private static List<String[]> commands(String uri, RedisNodes nodes) {
        String list = uri + "," + nodes.node(1).uri() + "," + nodes.node(2).uri();
        return List.of(
                new String[] {"acquire", "secret-res", "--ttl", "5s", "--nodes", list},
                new String[] {"extend", "secret-res", "--value", "not-held", "--json", "--nodes", list},
                new String[] {"release", "secret-res", "--value", "not-held", "--json", "--nodes", list},
                new String[] {"status", "secret-res", "--json", "--nodes", list},
                new String[] {"doctor", "--json", "--nodes", list},
                new String[] {"run", "secret-run", "--nodes", list, "--", "true"},
                new String[] {"servers", "--count", uri},
                new String[] {"demo", uri},
                new String[] {"bench", "--rounds", uri},
                new String[] {"status", "--nodes", uri});
    }

    private static void allowEveryPassword(RedisNodes nodes, List<String> passwords) {
        List<String> all = new ArrayList<>(passwords);
        passwords.forEach(p -> all.add(encode(p)));
        AclSetuserArgs args = AclSetuserArgs.Builder.on().allKeys().allChannels().allCommands();
        for (String password : all) {
            args.addPassword(password);
        }
        nodes.node(0).redis(r -> r.aclSetuser("app", args));
    }

    private static void assertNoSecret(String what, String output) {
        assertThat(output).as(what).doesNotContain(LEFT).doesNotContain(RIGHT);
    }

    @Test
    void noPasswordIsPrintedByAnyCommandInAnyUriForm(RedisNodes nodes) throws Exception {
        List<String> passwords = AWKWARD.stream().map(c -> LEFT + c + RIGHT).toList();
        allowEveryPassword(nodes, passwords);
        List<String[]> cases = new ArrayList<>();
        for (String password : passwords) {
            for (String written : List.of(password, encode(password))) {
                for (String uri : uris(written, nodes)) {
                    cases.addAll(commands(uri, nodes));
                }
            }
        }
        assertThat(cases).hasSize(7 * 2 * 4 * 10);
        // in parallel: a release waits up to 2 s for its deletes to an unreachable node to land
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (String[] args : cases) {
                done.add(pool.submit(() -> runHidingSecrets(args)));
            }
            for (Future<?> each : done) {
                each.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void noPieceOfAPasswordInAMalformedNodeStringIsPrinted(RedisNodes nodes) {
        String address = nodes.node(0).address();
        String piece = "Q7"; // two characters: too short to be hidden as a word, so only the user-info rule masks it
        String secret = LEFT + RIGHT;
        List<String> shapes = List.of(
                "admin:" + secret + "@" + address,
                "redis:/:" + secret + "@" + address,
                "redis//:" + secret + "@" + address,
                "redis:" + secret + "@",
                ":" + LEFT + "%2F" + RIGHT + "@" + address,
                "redis://:" + LEFT + "/" + piece + "@" + address + ":x",
                "redis://:" + piece + "@" + address + ":x",
                "rediss://:" + LEFT + "/" + piece + "@[::1",
                "cluster:admin:" + secret + "@" + address);
        for (String shape : shapes) {
            for (String command : List.of("acquire", "status")) {
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int code = RedlockCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), command,
                        "secret-res", "--nodes", shape);
                String printed = out.toString() + err;
                String what = command + " " + shape.replace(LEFT, "L").replace(RIGHT, "R") + " -> " + code;
                assertNoSecret(what, printed);
                assertThat(printed).as(what).doesNotContain(piece);
                assertThat(code).as(what).isNotEqualTo(ExitCodes.SOFTWARE);
            }
        }
    }

    private static void runHidingSecrets(String[] args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RedlockCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        String what = String.join(" ", args).replace(LEFT, "L").replace(RIGHT, "R") + " -> " + code;
        assertNoSecret(what, out.toString() + err.toString());
        assertThat(code).as(what + "\n" + err.toString().replace(LEFT, "L").replace(RIGHT, "R"))
                .isNotEqualTo(ExitCodes.SOFTWARE);
    }

    @Test
    void noPasswordIsPrintedByAnyCommandAsASeparateProcess(RedisNodes nodes) throws Exception {
        String password = LEFT + " /@\":%" + RIGHT;
        allowEveryPassword(nodes, List.of(password));
        String wellFormed = "redis://app:" + encode(password) + "@" + nodes.node(0).address();
        String raw = "redis://:" + password + "@" + nodes.node(0).address();
        Map<String, String> env = Map.of(NodeOptions.ENV_NODES,
                String.join(",", wellFormed, nodes.node(1).uri(), nodes.node(2).uri()));
        Map<String, String> rawEnv = Map.of(NodeOptions.ENV_NODES, raw);
        List<Cli> runs = List.of(
                Cli.start(env, "acquire", "secret-proc", "--ttl", "5s", "--verbose"),
                Cli.start(env, "extend", "secret-proc", "--value", "not-held", "--json", "--debug"),
                Cli.start(rawEnv, "release", "secret-proc", "--value", "not-held", "--json", "--debug"),
                Cli.start(env, "status", "secret-proc", "--json", "--verbose"),
                Cli.start(env, "doctor", "--json"),
                Cli.start(rawEnv, "run", "secret-proc", "--", "true"),
                Cli.start(Map.of(), "servers", "--count", raw),
                Cli.start(Map.of(), "demo", wellFormed),
                Cli.start(Map.of(), "bench", "--rounds", raw, "--debug"));
        for (Cli run : runs) {
            int code = run.waitFor();
            assertNoSecret("exit " + code, run.out() + run.err());
            assertThat(code).as(run.err().replace(LEFT, "L").replace(RIGHT, "R")).isNotEqualTo(ExitCodes.SOFTWARE);
        }
    }
}
