package io.redlock.cli;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/** Passes SIGINT and SIGTERM sent to this JVM on to the child process, instead of exiting at once. */
final class Signals {

    private static final String[] FORWARDED = {"INT", "TERM"};
    private static final Map<String, SignalHandler> previous = new HashMap<>();

    private Signals() {
    }

    static synchronized void forwardTo(Process child) {
        for (String name : FORWARDED) {
            Signal signal = new Signal(name);
            previous.put(name, Signal.handle(signal, s -> send(child, name)));
        }
    }

    static synchronized void restore() {
        previous.forEach((name, handler) -> Signal.handle(new Signal(name), handler));
        previous.clear();
    }

    private static void send(Process child, String name) {
        if (!child.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-" + name, Long.toString(child.pid())).start().waitFor();
        } catch (IOException e) {
            child.destroy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
