package io.redlock.cli;

import java.util.HashMap;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Passes SIGINT, SIGTERM and SIGHUP sent to this JVM on to the job's whole process group (SIGKILL follows after the
 * grace), instead of exiting at once: the lock is released only once the job is gone.
 */
final class Signals {

    private static final String[] FORWARDED = {"INT", "TERM", "HUP"};
    private static final Map<String, SignalHandler> previous = new HashMap<>();

    private Signals() {
    }

    static synchronized void forwardTo(Job job) {
        for (String name : FORWARDED) {
            Signal signal = new Signal(name);
            previous.put(name, Signal.handle(signal, s -> job.stop(name, "got SIG" + name)));
        }
    }

    static synchronized void restore() {
        previous.forEach((name, handler) -> Signal.handle(new Signal(name), handler));
        previous.clear();
    }
}
