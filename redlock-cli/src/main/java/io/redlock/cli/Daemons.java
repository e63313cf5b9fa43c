package io.redlock.cli;

import java.util.concurrent.ThreadFactory;

/** Threads that never keep the command's JVM alive on their own. */
final class Daemons {

    private Daemons() {
    }

    /** A factory of daemon threads called {@code name}. */
    static ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
