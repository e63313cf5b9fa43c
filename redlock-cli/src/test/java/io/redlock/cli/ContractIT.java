package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exit-code contract and the setup warnings, black-box: each case is the command in a JVM of its own. */
@WithRedisNodes(5)
class ContractIT {

    private static Map<String, String> env(RedisNodes nodes) {
        return TestNodes.env(nodes);
    }

    private static String acquired(RedisNodes nodes, String resource) {
        try (Redlock redlock = TestNodes.client(nodes)) {
            Lease lease = redlock.tryAcquire(resource, Duration.ofSeconds(30)).orElseThrow();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                    .until(() -> nodes.servers().stream().allMatch(s -> s.get(resource) != null));
            return lease.value();
        }
    }

    /** What a command can do while the first three of five nodes hang (SIGSTOP): no majority answers. */
    private interface WhileHung {
        void run() throws Exception;
    }

    private static void withAMajorityHung(RedisNodes nodes, WhileHung body) throws Exception {
        for (int i = 0; i < 3; i++) {
            nodes.node(i).pause();
        }
        try {
            body.run();
        } finally {
            for (int i = 0; i < 3; i++) {
                nodes.node(i).resume();
            }
        }
    }

    private static void assertOneLine(Cli cli) throws Exception {
        assertThat(cli.err().lines().toList()).as(cli.err()).hasSize(1).allMatch(l -> l.startsWith("redlock: "));
        assertThat(cli.err()).doesNotContain("\tat ");
    }

    @Test
    void extendAgainstHungNodesIsNoQuorumNotExpired(RedisNodes nodes) throws Exception {
        String value = acquired(nodes, "hung-extend");
        withAMajorityHung(nodes, () -> {
            Cli cli = Cli.run(env(nodes), "extend", "hung-extend", "--value", value, "--ttl", "30s");
            assertThat(cli.exitCode()).as(cli.err()).isEqualTo(ExitCodes.UNAVAILABLE);
            assertThat(cli.err()).contains("no quorum").contains(nodes.node(0).address())
                    .doesNotContain("no longer held");
        });
    }

    @Test
    void aReleaseTooFewNodesConfirmedIs69NamingTheSilentNodes(RedisNodes nodes) throws Exception {
        String value = acquired(nodes, "hung-release");
        withAMajorityHung(nodes, () -> {
            Cli cli = Cli.run(env(nodes), "release", "hung-release", "--value", value, "--json");
            assertThat(cli.exitCode()).as(cli.err()).isEqualTo(ExitCodes.UNAVAILABLE);
            assertThat(cli.err()).contains(nodes.node(0).address()).contains(nodes.node(1).address())
                    .contains(nodes.node(2).address()).doesNotContain(nodes.node(3).address());
            assertThat(cli.out()).contains("\"released_nodes\":2").contains("\"confirmed\":false");
        });
    }

    @Test
    void everyKindOfBadInputIs64OnOneLineWithoutAStackTrace(RedisNodes nodes) throws Exception {
        String node = nodes.node(0).uri();
        // one case of each kind here; RedlockCliTest runs the whole matrix in-process
        List<List<String>> cases = List.of(
                List.of("acquire", "job", "--no-such-option", "--nodes", node),
                List.of("run", "--ttl", "3q", "job", "--nodes", node, "--", "true"),
                List.of("extend", "job", "--value", "v", "--ttl", "99999999999999999999s", "--nodes", node),
                List.of("servers", "--port-base", "70000"),
                List.of("release", "job", "--value", "v", "--nodes", "redis://127.0.0.1:notaport"),
                List.of("status", " ", "--nodes", node));
        List<Cli> runs = new java.util.ArrayList<>();
        for (List<String> args : cases) {
            runs.add(Cli.start(Map.of(), args.toArray(String[]::new)));
        }
        for (int i = 0; i < cases.size(); i++) {
            Cli cli = runs.get(i);
            assertThat(cli.waitFor()).as(cases.get(i) + ": " + cli.err()).isEqualTo(ExitCodes.USAGE);
            assertOneLine(cli);
        }
    }

    @Test
    void theNodeTimeoutDefaultsToTheEnvironmentsThenFiftyMilliseconds() throws Exception {
        Cli fromEnvironment = Cli.run(Map.of(NodeOptions.ENV_NODE_TIMEOUT, "750ms"), "acquire", "--help");
        assertThat(fromEnvironment.out()).containsPattern("now\\s+750ms");
        Cli unset = Cli.run(Map.of(), "acquire", "--help");
        assertThat(unset.out()).containsPattern("now\\s+50ms");
    }

    @Test
    void theFenceCounterHorizonIsTheOptionsOrTheLibrarysDefault(RedisNodes nodes) throws Exception {
        Cli shortHorizon = Cli.run(env(nodes), "acquire", "horizon", "--fence-counter-ttl", "90s");
        assertThat(shortHorizon.exitCode()).as(shortHorizon.err()).isZero();
        Cli byDefault = Cli.run(env(nodes), "acquire", "defaulted");
        assertThat(byDefault.exitCode()).as(byDefault.err()).isZero();
        Cli forever = Cli.run(env(nodes), "acquire", "forever", "--fence-counter-ttl", "0s");
        assertThat(forever.exitCode()).as(forever.err()).isZero();
        long day = io.redlock.RedlockConfig.DEFAULT_FENCE_COUNTER_TTL.toMillis();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            for (RedisServer node : nodes) {
                assertThat(node.pttl("horizon:fence")).isBetween(1L, 90_000L);
                assertThat(node.pttl("defaulted:fence")).isBetween(day - 60_000, day);
                assertThat(node.pttl("forever:fence")).isEqualTo(-1L);
            }
        });
    }

    @Test
    void aServerListedTwiceIsNotTakenForAnotherHolder(RedisNodes nodes) throws Exception {
        String twice = "redis://localhost:" + nodes.node(0).port();
        nodes.node(1).kill();
        Cli cli = Cli.run(Map.of(), "acquire", "twice", "--nodes",
                String.join(",", nodes.node(0).uri(), twice, nodes.node(1).uri()));
        assertThat(cli.exitCode()).as(cli.err()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(cli.err()).doesNotContain("held by another client").contains("same server");
        nodes.node(0).kill(); // now the server listed twice is the one that is down
        Cli down = Cli.run(Map.of(), "acquire", "twice", "--nodes",
                String.join(",", nodes.node(0).uri(), twice, nodes.node(2).uri()));
        assertThat(down.exitCode()).as(down.err()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(down.err()).doesNotContain("held by another client").contains("no quorum");
    }

    @Test
    void unsafeSetupsAreWarnedOnceOnOneLineEachAndQuietSilencesThem(RedisNodes nodes) throws Exception {
        nodes.node(0).redis(r -> r.configSet("maxmemory-policy", "allkeys-lru"));
        String twice = "redis://localhost:" + nodes.node(2).port();
        String list = String.join(",", nodes.node(0).uri(), nodes.node(1).uri(), nodes.node(2).uri(), twice);
        Cli acquire = Cli.run(Map.of(), "acquire", "unsafe", "--nodes", list);
        assertThat(acquire.exitCode()).as(acquire.err()).isZero();
        List<String> lines = acquire.err().lines().toList();
        assertThat(lines).as(acquire.err()).hasSize(3).allMatch(l -> l.startsWith("redlock: warning: "));
        assertThat(lines).anyMatch(l -> l.contains("4 nodes"))
                .anyMatch(l -> l.contains(nodes.node(0).address()) && l.contains("allkeys-lru"))
                .anyMatch(l -> l.contains("localhost:" + nodes.node(2).port()) && l.contains("same server"));
        String value = acquire.out().replaceAll("(?s).*\"value\":\"([^\"]+)\".*", "$1").trim();
        Cli quiet = Cli.run(Map.of(), "extend", "unsafe", "--value", value, "--quiet", "--nodes", list);
        assertThat(quiet.exitCode()).as(quiet.err()).isZero();
        assertThat(quiet.err()).isEmpty();
    }

    @Test
    void aReplicaIsWarnedAboutAndLibraryLogsNeedVerbose(RedisNodes nodes) throws Exception {
        try (RedisServer replica = RedisServer.launch("--replicaof", "127.0.0.1",
                Integer.toString(nodes.node(0).port()))) {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> replica.redis(
                    r -> r.info("replication")).contains("master_link_status:up"));
            String list = String.join(",", nodes.node(3).uri(), nodes.node(4).uri(), replica.uri());
            Cli run = Cli.run(Map.of(), "run", "--nodes", list, "replicated", "--", "sh", "-c", "echo job ran >&2");
            assertThat(run.exitCode()).as(run.err()).isZero();
            List<String> lines = run.err().lines().toList();
            // the warning comes first; the replica refuses the write, and is named as not taking part when its
            // refusal came before the two masters' grants decided the round (it may come after)
            assertThat(lines).as(run.err()).hasSizeBetween(2, 3).last().isEqualTo("job ran");
            assertThat(lines.get(0)).startsWith("redlock: warning: ").contains(replica.address()).contains("replica");
            if (lines.size() == 3) {
                assertThat(lines.get(1)).startsWith("redlock: acquired 'replicated' on 2 of 3 nodes")
                        .contains(replica.address()).contains("READONLY");
            }
            Cli verbose = Cli.run(Map.of(), "run", "--verbose", "--nodes", list, "replicated", "--", "true");
            assertThat(verbose.exitCode()).as(verbose.err()).isZero();
            assertThat(verbose.err().lines()).as(verbose.err()).anyMatch(l -> !l.startsWith("redlock: "));
        }
    }

    @Test
    void statusShowsTheHolderOnEveryNodeAndTheVerdict(RedisNodes nodes) throws Exception {
        String value = acquired(nodes, "shown");
        Cli text = Cli.run(env(nodes), "status", "shown");
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains(nodes.node(4).address()).contains(value.substring(0, 8))
                .doesNotContain(value).contains("verdict: held by " + value.substring(0, 8));
        Cli json = Cli.run(env(nodes), "status", "shown", "--json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"verdict\":\"held\"").contains("\"holder\":\"" + value + "\"")
                .contains("\"fence\":").contains("\"ttl_ms\":").contains("\"queue\":0");
    }

    @Test
    void statusShowsReadersAndPermitHoldersAndWhatTheyAddUpTo(RedisNodes nodes) throws Exception {
        try (Redlock redlock = TestNodes.client(nodes)) {
            Duration ttl = Duration.ofSeconds(30);
            redlock.readWriteLock("shown:read").tryAcquireRead(ttl).orElseThrow();
            redlock.readWriteLock("shown:read").tryAcquireRead(ttl).orElseThrow();
            Lease permit = redlock.semaphore("shown-permits", 3).tryAcquire(ttl).orElseThrow();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> nodes.servers().stream()
                    .allMatch(s -> s.get("shown:read") != null && s.get("shown-permits") != null));
            Cli read = Cli.run(env(nodes), "status", "shown:read");
            assertThat(read.exitCode()).as(read.err()).isZero();
            assertThat(read.out()).contains("SHARED").contains("verdict: read-locked by 2 readers on 5 of 5 nodes");
            Cli permits = Cli.run(env(nodes), "status", "shown-permits", "--json");
            assertThat(permits.exitCode()).as(permits.err()).isZero();
            assertThat(permits.out()).contains("\"permits\":3").contains("\"read_locked\":false")
                    .contains("\"shared_by\":[\"" + permit.value() + "\"]");
            Cli text = Cli.run(env(nodes), "status", "shown-permits");
            assertThat(text.out()).contains("verdict: 1 of 3 permits held on 5 of 5 nodes");
        }
    }

    @Test
    void statusWithoutAMajorityIs69(RedisNodes nodes) throws Exception {
        withAMajorityHung(nodes, () -> {
            Cli cli = Cli.run(env(nodes), "status", "anything");
            assertThat(cli.exitCode()).as(cli.out() + cli.err()).isEqualTo(ExitCodes.UNAVAILABLE);
            assertThat(cli.out()).contains("verdict: unknown");
        });
    }
}
