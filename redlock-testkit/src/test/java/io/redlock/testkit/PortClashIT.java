package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A port taken between picking it and binding it: the server retries on another free port. */
class PortClashIT {

    @Test
    void startsOnAnotherFreePortWhenThePickedOneIsTaken() throws IOException {
        try (ServerSocket squatter = occupyALoopbackPort()) {
            int taken = squatter.getLocalPort();
            AtomicInteger offered = new AtomicInteger();
            IntSupplier takenFirst = () -> offered.getAndIncrement() == 0 ? taken : ServerProbes.freePort();

            try (RedisServer server = RedisServer.builder().freePorts(takenFirst).start()) {
                assertThat(offered).as("port candidates asked for").hasValue(2);
                assertThat(server.port()).isNotEqualTo(taken);
                assertThat(server.ping()).isEqualTo("PONG");
                assertThat(Files.readString(server.logFile())).as("the first attempt really clashed")
                        .contains("Address already in use");
            }
        }
    }

    @Test
    void aProcessAnsweringPingOnThePickedPortIsNotMistakenForTheServer() throws IOException {
        try (PongSquatter squatter = new PongSquatter()) {
            int taken = squatter.port();
            AtomicInteger offered = new AtomicInteger();
            IntSupplier takenFirst = () -> offered.getAndIncrement() == 0 ? taken : ServerProbes.freePort();

            try (RedisServer server = RedisServer.builder().freePorts(takenFirst).start()) {
                assertThat(server.port()).isNotEqualTo(taken);
                assertThat(server.<String>redis(r -> r.info("server"))).contains("process_id:" + server.pid());
                assertThat(Files.readString(server.logFile())).contains("Address already in use");
            }
        }
    }

    @Test
    void aFixedPortThatStaysTakenFailsNamingThePortAndLeavesNoProcess() throws IOException {
        Set<Long> before = redisChildren();
        try (ServerSocket squatter = occupyALoopbackPort()) {
            int taken = squatter.getLocalPort();
            RedisServer server = RedisServer.builder().port(taken).build();
            try {
                assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("port " + taken + " is in use");
                assertThat(server.isRunning()).isFalse();
            } finally {
                server.close();
            }
        }
        assertThat(redisChildren()).as("redis-server children of this JVM").isSubsetOf(before);
    }

    /** Holds a loopback port and answers every connection with {@code +PONG}, as another Redis would. */
    private static final class PongSquatter implements AutoCloseable {
        private static final int MAX_CONNECTIONS = 1_000;
        private final ServerSocket socket = occupyALoopbackPort();
        private final Thread answerer = new Thread(this::answer, "pong-squatter");

        PongSquatter() throws IOException {
            answerer.setDaemon(true);
            answerer.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void answer() {
            for (int i = 0; i < MAX_CONNECTIONS && !socket.isClosed(); i++) {
                try (Socket client = socket.accept()) {
                    client.getOutputStream().write("+PONG\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException closed) {
                    return;
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
            try {
                answerer.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static ServerSocket occupyALoopbackPort() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress("127.0.0.1", 0));
        return socket;
    }

    private static Set<Long> redisChildren() {
        return ProcessHandle.current().children()
                .filter(p -> p.info().command().map(c -> c.endsWith("redis-server")).orElse(false))
                .map(ProcessHandle::pid).collect(Collectors.toSet());
    }
}
