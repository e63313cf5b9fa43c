package io.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** What the testkit asks of the loopback interface and of a server's log: a free port, a PING, a log line. */
final class ServerProbes {

    static final String HOST = "127.0.0.1";

    private ServerProbes() {
    }

    /** Whether something on {@code port} answers a PING like a Redis server (an auth error counts). */
    static boolean answersPing(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[64];
            int n = in.read(reply);
            if (n <= 0) {
                return false;
            }
            String text = new String(reply, 0, n, StandardCharsets.US_ASCII);
            // "+PONG", or an auth error from a password-protected server: both mean it serves requests
            return text.startsWith("+PONG") || text.startsWith("-NOAUTH") || text.startsWith("-ERR");
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether {@code file}, from byte {@code offset} on, has a line starting with {@code prefix} with {@code text}. */
    static boolean logHasLine(Path file, long offset, String prefix, String text) {
        try (var channel = Files.newByteChannel(file)) {
            channel.position(offset);
            String written = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
            return written.lines().anyMatch(line -> line.startsWith(prefix) && line.contains(text));
        } catch (IOException e) {
            return false; // not written yet
        }
    }

    /** A port on 127.0.0.1 that was free a moment ago. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(HOST, 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + HOST + ": " + e.getMessage(), e);
        }
    }

    /** Whether {@code port} on 127.0.0.1 is free at this moment. */
    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(HOST, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The last ten lines of {@code file}, after its earlier lines that mention an error (15 at most): for an error
     * message.
     */
    static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            List<String> errors = lines.subList(0, Math.max(0, lines.size() - 10)).stream()
                    .filter(line -> line.toLowerCase(java.util.Locale.ROOT).contains("error")).limit(15).toList();
            String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
            return errors.isEmpty() ? tail : String.join("\n", errors) + "\n...\n" + tail;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Sleeps; an interrupt fails the start of a server. */
    static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting redis-server", e);
        }
    }
}
