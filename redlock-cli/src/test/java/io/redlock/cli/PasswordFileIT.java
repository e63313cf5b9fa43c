package io.redlock.cli;

import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nodes' password from a file, named by {@code --password-file} or {@code $REDLOCK_PASSWORD_FILE}, so it is on
 * no command line; and no password in the environment of the command {@code run} starts.
 */
@WithRedisNodes(value = 3, args = {"--requirepass", PasswordFileIT.PASSWORD})
class PasswordFileIT {

    static final String PASSWORD = "file-pw-7Kq";

    private static String nodes(RedisNodes nodes, String userInfo) {
        return nodes.servers().stream().map(server -> "redis://" + userInfo + server.address()).collect(joining(","));
    }

    private static Path passwordFile(Path dir, String permissions) throws Exception {
        Path file = dir.resolve("redis-password");
        Files.writeString(file, PASSWORD + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    private static int inProcess(StringWriter err, String... args) {
        return RedlockCli.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), args);
    }

    @Test
    void aPasswordFileNamedByTheOptionOrTheEnvironmentServesTheNodes(RedisNodes nodes, @TempDir Path dir)
            throws Exception {
        Path file = passwordFile(dir, "rw-------");
        StringWriter err = new StringWriter();
        assertThat(inProcess(err, "acquire", "pw-option", "--ttl", "5s", "--node-timeout", Cli.NODE_TIMEOUT,
                "--password-file", file.toString(), "--nodes", nodes(nodes, ""))).as(err.toString()).isZero();

        Cli acquire = Cli.run(Map.of(PasswordFile.ENV, file.toString(), NodeOptions.ENV_NODES, nodes(nodes, "")),
                "acquire", "pw-environment", "--ttl", "5s");
        assertThat(acquire.exitCode()).as(acquire.err()).isZero();
        assertThat(acquire.out() + acquire.err()).doesNotContain(PASSWORD);
    }

    @Test
    void aPasswordFileOthersMayReadIsRefused(RedisNodes nodes, @TempDir Path dir) throws Exception {
        Path file = passwordFile(dir, "rw-r--r--");
        StringWriter err = new StringWriter();
        assertThat(inProcess(err, "acquire", "pw-open", "--ttl", "5s", "--password-file", file.toString(),
                "--nodes", nodes(nodes, ""))).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("chmod 600 " + file).doesNotContain(PASSWORD);
    }

    @Test
    void theCommandOfRunGetsNoVariableHoldingAPassword(RedisNodes nodes) throws Exception {
        Cli run = Cli.run(Map.of(NodeOptions.ENV_NODES, nodes(nodes, ":" + PASSWORD + "@")), "run", "pw-run", "--",
                "env");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("REDLOCK_TOKEN=").doesNotContain(PASSWORD)
                .doesNotContain(NodeOptions.ENV_NODES + "=");
    }
}
