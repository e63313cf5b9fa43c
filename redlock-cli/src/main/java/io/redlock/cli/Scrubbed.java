package io.redlock.cli;

import io.redlock.Secrets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Output that passes through {@link Secrets#hide(String)} a line at a time, so no password given to the command
 * (arguments, $REDLOCK_NODES) reaches the terminal whoever prints it: the commands, picocli's messages, the logging.
 * A line is held until its end or a flush, so a secret printed in pieces is still found whole. Messages about URIs
 * also mask their user-info ({@link Secrets#mask(String)}) where they are made.
 */
final class Scrubbed {

    private Scrubbed() {
    }

    /** A writer printing to {@code target} with every secret masked; autoflush at each line end. */
    static PrintWriter writer(Writer target, Secrets secrets) {
        return new PrintWriter(new LineWriter(target, secrets), true);
    }

    /** A stream printing to {@code target} with every secret masked. */
    static PrintStream stream(PrintStream target, Secrets secrets) {
        return new PrintStream(new LineStream(target, secrets), true, StandardCharsets.UTF_8);
    }

    private static final class LineWriter extends Writer {
        private final Writer target;
        private final Secrets secrets;
        private final StringBuilder line = new StringBuilder();

        LineWriter(Writer target, Secrets secrets) {
            super(target);
            this.target = target;
            this.secrets = secrets;
        }

        @Override
        public void write(char[] chars, int offset, int length) throws IOException {
            synchronized (lock) {
                for (int i = offset; i < offset + length; i++) {
                    line.append(chars[i]);
                    if (chars[i] == '\n') {
                        emit();
                    }
                }
            }
        }

        private void emit() throws IOException {
            target.write(secrets.hide(line.toString()));
            line.setLength(0);
        }

        @Override
        public void flush() throws IOException {
            synchronized (lock) {
                if (!line.isEmpty()) {
                    emit();
                }
                target.flush();
            }
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    private static final class LineStream extends OutputStream {
        private final PrintStream target;
        private final Secrets secrets;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineStream(PrintStream target, Secrets secrets) {
            this.target = target;
            this.secrets = secrets;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                emit();
            }
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                write(bytes[i]);
            }
        }

        private void emit() {
            byte[] scrubbed = secrets.hide(line.toString(StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            target.write(scrubbed, 0, scrubbed.length);
            line.reset();
        }

        @Override
        public synchronized void flush() {
            if (line.size() > 0) {
                emit();
            }
            target.flush();
        }
    }
}
