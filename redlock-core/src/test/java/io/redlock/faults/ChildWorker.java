package io.redlock.faults;

import io.redlock.testkit.history.Event;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A worker in a JVM of its own, so a test can SIGSTOP a real holder process. Prints {@code HOLDING} in every critical
 * section; on a line {@code stop} on stdin it stops, writes both histories to the events file and exits.
 * Arguments: lock URIs (comma-separated), storage URI, TTL in ms, events file.
 */
public final class ChildWorker {

    private ChildWorker() {
    }

    public static void main(String[] args) throws Exception {
        List<String> lockUris = Arrays.asList(args[0].split(","));
        Duration ttl = Duration.ofMillis(Long.parseLong(args[2]));
        Path events = Path.of(args[3]);
        try (Workload workload = new Workload(lockUris, args[1], ttl, 1, "child-", false)) {
            workload.schedule.onHolding(lease -> {
                System.out.println("HOLDING " + lease.fencingToken());
                System.out.flush();
            });
            workload.start();
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = stdin.readLine(); line != null && !line.equals("stop"); line = stdin.readLine()) {
                // wait for the parent
            }
            workload.stop();
            List<String> lines = new ArrayList<>();
            workload.record.plainHistory.events().forEach(e -> lines.add("plain\t" + format(e)));
            workload.record.fencedHistory.events().forEach(e -> lines.add("fenced\t" + format(e)));
            Files.write(events, lines);
        }
        System.exit(0);
    }

    static String format(Event e) {
        return String.join("\t", e.process(), e.op().name(), String.valueOf(e.lease()), Long.toString(e.token()),
                Long.toString(e.invokedAt()), Long.toString(e.completedAt()), e.outcome().name(),
                Long.toString(e.validUntil()), String.valueOf(e.value()), String.valueOf(e.note()));
    }

    /** Parses one line written by {@link #format(Event)}, giving it {@code id}. */
    static Event parse(long id, String[] f) {
        return new Event(id, f[0], io.redlock.testkit.history.Op.valueOf(f[1]), "null".equals(f[2]) ? null : f[2],
                Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
                io.redlock.testkit.history.Outcome.valueOf(f[6]), Long.parseLong(f[7]),
                "null".equals(f[8]) ? null : Long.valueOf(f[8]), "null".equals(f[9]) ? null : f[9]);
    }
}
