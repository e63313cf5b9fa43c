package io.redlock.testkit;

import static io.redlock.testkit.ProxyItSupport.HOST;
import static io.redlock.testkit.ProxyItSupport.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A raw client connection through a {@link TcpProxy}: inline commands out, reply lines in. */
final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;

    private RawClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
    }

    static RawClient open(TcpProxy proxy) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(HOST, proxy.port()), (int) PATIENCE.toMillis());
            socket.setSoTimeout((int) PATIENCE.toMillis());
            return new RawClient(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    void send(String inlineCommand) throws IOException {
        socket.getOutputStream().write((inlineCommand + "\r\n").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    String call(String inlineCommand) throws IOException {
        send(inlineCommand);
        return line();
    }

    /** The next reply line, without its CRLF. */
    String line() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + bytes.size() + " bytes of a line");
            }
            if (previous == '\r' && b == '\n') {
                byte[] line = bytes.toByteArray();
                return new String(line, 0, line.length - 1, StandardCharsets.US_ASCII);
            }
            bytes.write(b);
            previous = b;
        }
    }

    /** Nothing arrives for this long (and the connection stays open). */
    void expectSilence(Duration silence) throws IOException {
        socket.setSoTimeout((int) silence.toMillis());
        try {
            int b = in.read();
            fail("expected silence, but read " + (b < 0 ? "the end of the stream" : "byte " + b));
        } catch (SocketTimeoutException expected) {
            // silence
        } finally {
            socket.setSoTimeout((int) PATIENCE.toMillis());
        }
    }

    /** The proxy closed or aborted this connection: the end of the stream or a reset, not a timeout. */
    void expectClosed() throws IOException {
        try {
            while (in.read() >= 0) {
                // a reply that was already on its way may come first
            }
        } catch (SocketTimeoutException e) {
            fail("the connection was not closed within " + PATIENCE);
        } catch (SocketException e) {
            assertThat(e).hasMessageContaining("reset");
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
