package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** redlock servers: starts nodes, prints how to use them, stops them on Ctrl-C or TERM. */
class ServersIT {

    private static List<Long> pids(Cli cli) throws IOException {
        return Pattern.compile("pid (\\d+)").matcher(cli.out()).results().map(m -> Long.parseLong(m.group(1)))
                .toList();
    }

    private static boolean allGone(List<Long> pids) {
        return pids.stream().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    @Test
    void serversStartNodesAndStopThemOnTerm() throws Exception {
        Cli cli = Cli.start(Map.of(), "servers", "--count", "3");
        await().atMost(Duration.ofSeconds(60)).until(() -> cli.out().contains("Press Ctrl-C"));
        List<Long> pids = pids(cli);
        assertThat(pids).hasSize(3).allMatch(pid -> ProcessHandle.of(pid).isPresent());
        assertThat(cli.out()).containsPattern("export REDLOCK_NODES=redis://127\\.0\\.0\\.1:\\d+,");
        cli.signal("TERM");
        cli.waitFor();
        await().atMost(Duration.ofSeconds(10)).until(() -> allGone(pids));
        assertThat(cli.err()).contains("stopped 3 redis-server nodes");
    }

    @Test
    void portBaseChoosesConsecutivePortsAndCtrlCStopsThem() throws Exception {
        int base = freePortRun(3);
        Cli cli = Cli.start(Map.of(), "servers", "--count", "3", "--port-base", Integer.toString(base));
        await().atMost(Duration.ofSeconds(60)).until(() -> cli.out().contains("Press Ctrl-C"));
        String expected = String.join(",", IntStream.range(0, 3).mapToObj(i -> "redis://127.0.0.1:" + (base + i))
                .toList());
        assertThat(cli.out()).contains("export REDLOCK_NODES=" + expected + "\n");
        List<Long> pids = pids(cli);
        assertThat(pids).hasSize(3);
        cli.signal("INT"); // what Ctrl-C sends
        assertThat(cli.waitFor()).isEqualTo(128 + 2); // the JVM ends on SIGINT after its shutdown hooks ran
        await().atMost(Duration.ofSeconds(10)).until(() -> allGone(pids));
        assertThat(cli.err()).contains("stopped 3 redis-server nodes");
    }

    @Test
    void serversKilledWithSigkillStillStopTheirNodesAndRemoveTheirFolders() throws Exception {
        Cli cli = Cli.start(Map.of(), "servers", "--count", "2");
        await().atMost(Duration.ofSeconds(60)).until(() -> cli.out().contains("Press Ctrl-C"));
        List<Long> pids = pids(cli);
        try {
            List<Path> folders = new ArrayList<>();
            for (long pid : pids) {
                folders.add(Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd")));
            }
            assertThat(folders).hasSize(2).allMatch(Files::isDirectory);
            cli.signal("KILL");
            cli.waitFor();
            await().atMost(Duration.ofSeconds(30)).until(() -> allGone(pids));
            await().atMost(Duration.ofSeconds(10)).until(() -> folders.stream().noneMatch(Files::exists));
        } finally { // the nodes started for this test, if the watcher failed to stop them
            pids.stream().map(ProcessHandle::of).flatMap(Optional::stream) // still a redis-server, not a pid reused
                    .filter(p -> p.info().commandLine().orElse("").contains("redis-server"))
                    .forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** The first of {@code count} consecutive free loopback ports (bounded search). */
    private static int freePortRun(int count) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                base = probe.getLocalPort();
            }
            if (base + count <= 65_535 && IntStream.range(0, count).allMatch(i -> free(base + i))) {
                return base;
            }
        }
        throw new AssertionError("no run of " + count + " free ports found");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
