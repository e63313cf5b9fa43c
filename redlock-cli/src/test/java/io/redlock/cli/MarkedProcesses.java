package io.redlock.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The processes of one {@code redlock run} the test started (the command, its watcher, which detaches into a session
 * of its own, its job and the job's children), found by a random marker in the environment they all inherit, which no
 * other process carries; signalled by pid, nothing else.
 */
final class MarkedProcesses {

    static final String VARIABLE = "REDLOCK_TEST_RUN";

    private final String marker = UUID.randomUUID().toString();

    /** The variable to add to the run's environment. */
    String entry() {
        return marker;
    }

    /** The live processes that carry the marker. */
    List<Long> pids() {
        byte[] wanted = (VARIABLE + "=" + marker).getBytes(StandardCharsets.UTF_8);
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> proc = Files.list(Path.of("/proc"))) {
            proc.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                try {
                    if (contains(Files.readAllBytes(p.resolve("environ")), wanted)) {
                        pids.add(Long.parseLong(p.getFileName().toString()));
                    }
                } catch (IOException e) {
                    // gone meanwhile, or not ours to read
                }
            });
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc", e);
        }
        return pids;
    }

    /** Whether {@code pid} is a watcher ("redlock run watcher" in ps). */
    static boolean isWatcher(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).contains("watcher");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The watcher of the {@code redlock run} JVM {@code redlockPid}: the watcher that holds the read end of the
     * lifeline FIFO that JVM writes to (its {@code $0} overwrites its environment, so it carries no marker).
     */
    static List<Long> watcherOf(long redlockPid) {
        List<String> fifos = files(redlockPid).stream().filter(f -> f.startsWith("/")).toList();
        List<Long> watchers = new ArrayList<>();
        try (Stream<Path> proc = Files.list(Path.of("/proc"))) {
            proc.map(p -> p.getFileName().toString()).filter(n -> n.chars().allMatch(Character::isDigit))
                    .map(Long::parseLong).filter(MarkedProcesses::isWatcher)
                    .filter(pid -> files(pid).stream().anyMatch(fifos::contains)).forEach(watchers::add);
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc", e);
        }
        return watchers;
    }

    /** What the open file descriptors of {@code pid} point to. */
    private static List<String> files(long pid) {
        List<String> targets = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds.forEach(fd -> {
                try {
                    targets.add(Files.readSymbolicLink(fd).toString());
                } catch (IOException e) {
                    // closed meanwhile
                }
            });
        } catch (IOException e) {
            // gone
        }
        return targets;
    }

    /**
     * Whether {@code pid} has ended: gone, or a zombie (a job whose parent, still stopped, has not reaped it).
     */
    static boolean ended(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException e) {
            return true;
        }
    }

    /** {@code pid: command} of each of {@code pids}, for a message. */
    static String describe(List<Long> pids) {
        StringBuilder text = new StringBuilder();
        for (long pid : pids) {
            try {
                text.append(pid).append(": ").append(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"))
                        .replace('\0', ' ')).append("; ");
            } catch (IOException e) {
                text.append(pid).append(": gone; ");
            }
        }
        return text.toString();
    }

    /** Sends {@code signal} to each of {@code pids}. */
    static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        for (long pid : pids) {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor();
        }
    }

    private static boolean contains(byte[] environ, byte[] entry) {
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (i - start == entry.length && java.util.Arrays.equals(environ, start, i, entry, 0, entry.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }
}
