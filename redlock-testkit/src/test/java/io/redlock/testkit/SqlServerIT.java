package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PostgreSQL and MariaDB started like redis-server: a real process of the system's package on a loopback port,
 * owned by the unprivileged user when the tests run as root, answering its own client with the generated password,
 * and after {@code close()} no process of it and no directory left.
 */
class SqlServerIT {

    static Stream<Arguments> servers() {
        return Stream.of(
                Arguments.of("postgres", (Supplier<SqlServer>) PostgresServer::launch),
                Arguments.of("mariadb", (Supplier<SqlServer>) MariaDbServer::launch));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void startsAsAnUnprivilegedUserAnswersItsClientAndLeavesNothingBehind(String name, Supplier<SqlServer> launch)
            throws Exception {
        SqlServer server = launch.get();
        long pid;
        Path dir = server.dir();
        List<ProcessHandle> family = new ArrayList<>();
        try {
            pid = server.pid();
            assertThat(server.toString()).doesNotContain(server.password());
            if ("root".equals(System.getProperty("user.name"))) {
                assertThat(uid(pid)).isNotEqualTo("0");
            }
            assertThat(client(server, "SELECT 40 + 2")).contains("42");
            ProcessHandle.of(pid).ifPresent(p -> {
                family.add(p);
                p.descendants().forEach(family::add);
            });
        } finally {
            server.close();
        }
        assertThat(family).noneMatch(ProcessHandle::isAlive);
        assertThat(Files.exists(dir)).isFalse();
    }

    /** Runs one query with the server's own client over TCP, the password in the client's environment only. */
    private static String client(SqlServer server, String query) throws IOException, InterruptedException {
        ProcessBuilder builder;
        if (server instanceof PostgresServer postgres) {
            builder = new ProcessBuilder(postgres.psql().toString(), "-tAc", query);
            builder.environment().putAll(postgres.clientEnvironment());
        } else {
            builder = new ProcessBuilder("mariadb", "-h", server.host(), "-P", Integer.toString(server.port()),
                    "-u", server.user(), "-N", "-e", query, server.database());
            builder.environment().putAll(Map.of("MYSQL_PWD", server.password()));
        }
        Process client = builder.redirectErrorStream(true).start();
        String output = new String(client.getInputStream().readAllBytes());
        assertThat(client.waitFor()).as(output).isZero();
        return output;
    }

    private static String uid(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(line -> line.startsWith("Uid:")).findFirst().orElseThrow().split("\\s+")[1];
    }
}
