package io.redlock.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The command {@code redlock run} runs, with everything it forks: one process group of its own, in a session of its
 * own (job.pl sets it up). The job ends when its first process has exited and its group is empty; whatever the
 * first process left running is stopped first (SIGTERM, SIGKILL after the grace), so no process of a job outlives
 * its lock. A watcher outside the group stops the group if redlock itself dies ({@link Lifeline}).
 */
final class Job {

    /** How often the group is checked for remaining processes while the job ends. */
    private static final long POLL_MILLIS = 20;
    /** How often the lock's validity is read, to tell the watcher about extensions. */
    private static final long VALIDITY_MILLIS = 100;
    /** After SIGKILL, how long to wait for the kernel to remove the processes before giving up on them. */
    private static final Duration AFTER_KILL = Duration.ofSeconds(30);

    private static final String SCRIPT = PerlBinary.script("lifeline.pl", "job.pl");

    private final Process leader;
    private final ProcessGroup group;
    private final Lifeline lifeline;
    private final Duration grace;
    private final PrintWriter err;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Daemons.named("redlock-run-job"));
    private final CompletableFuture<Integer> ended = new CompletableFuture<>();
    private ScheduledFuture<?> kill; // guarded by this
    private boolean killed; // guarded by this

    private Job(Process leader, Lifeline lifeline, Duration grace, PrintWriter err) {
        this.leader = leader;
        this.group = new ProcessGroup(leader.pid()); // job.pl made it a session (and group) leader
        this.lifeline = lifeline;
        this.grace = grace;
        this.err = err;
    }

    /**
     * Starts {@code command} with {@code env} added to its environment, the variables {@code withheld} taken out of it,
     * and redlock's standard streams; {@code validity} says how long the lock is still valid (read every 100 ms, for
     * the watcher).
     *
     * @throws IOException if the job cannot be set up (no perl, no mkfifo); a command that cannot be started makes
     *                     the job end with exit code 127 instead, like a shell
     */
    static Job start(List<String> command, Map<String, String> env, Set<String> withheld, Duration grace,
            Supplier<Duration> validity, PrintWriter err) throws IOException {
        Lifeline lifeline = Lifeline.create();
        try {
            ProcessBuilder builder = PerlBinary.process(SCRIPT, lifeline.path().toString(),
                    Long.toString(grace.toMillis())).inheritIO();
            builder.command().addAll(command);
            builder.environment().keySet().removeAll(withheld);
            builder.environment().putAll(env);
            lifeline.validFor(validity.get()); // before the command starts: a stall from the first moment counts
            Job job = new Job(builder.start(), lifeline, grace, err);
            job.timer.scheduleWithFixedDelay(job.renewals(validity), VALIDITY_MILLIS, VALIDITY_MILLIS,
                    TimeUnit.MILLISECONDS);
            job.leader.onExit().thenAccept(p -> job.endWhenGroupIsEmpty(p.exitValue()));
            return job;
        } catch (IOException | RuntimeException e) {
            lifeline.close();
            throw e;
        }
    }

    /** Tells the watcher the validity each time it grew (an extension), until the job is being stopped. */
    private Runnable renewals(Supplier<Duration> validity) {
        Duration[] told = {validity.get()};
        return () -> {
            Duration now = validity.get();
            synchronized (this) {
                if (kill == null && now.compareTo(told[0]) > 0) {
                    lifeline.validFor(now);
                }
            }
            told[0] = now;
        };
    }

    /** Completes with the command's exit code once the command and every process of its group have exited. */
    CompletableFuture<Integer> ended() {
        return ended;
    }

    /**
     * Sends {@code signal} to every process of the job, then SIGKILL if any is still running after the grace. Only
     * the first stop counts; {@code why} is printed with it.
     */
    synchronized void stop(String signal, String why) {
        if (kill != null || timer.isShutdown()) {
            return; // stopping already, or over
        }
        err.println("redlock: " + why + "; sent SIG" + signal + " to the command's process group (SIGKILL in "
                + Durations.format(grace) + ")");
        err.flush();
        lifeline.stopping();
        group.signal(signal);
        kill = timer.schedule(this::kill, grace.toMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized void kill() {
        if (ended.isDone() || killed || group.isEmpty()) {
            return;
        }
        killed = true;
        err.println("redlock: the command's process group was still running " + Durations.format(grace)
                + " after the signal; sent SIGKILL");
        err.flush();
        group.signal("KILL");
    }

    private void endWhenGroupIsEmpty(int exitCode) {
        int left = group.members().size();
        if (left > 0) {
            stop("TERM", "the command exited but left " + left + " process" + (left == 1 ? "" : "es")
                    + " running in its group");
        }
        long giveUpAt = System.nanoTime() + grace.plus(AFTER_KILL).toNanos();
        timer.scheduleWithFixedDelay(() -> {
            boolean empty = group.isEmpty();
            if (!empty && System.nanoTime() - giveUpAt < 0) {
                return;
            }
            if (!empty) {
                err.println("redlock: processes " + group.members() + " of the command's group did not end "
                        + AFTER_KILL.toSeconds() + " s after SIGKILL; releasing the lock anyway");
                err.flush();
            }
            timer.shutdown(); // ends the periodic tasks: no validity is told after this
            synchronized (this) {
                if (kill != null) {
                    kill.cancel(false);
                }
            }
            lifeline.done();
            lifeline.close();
            ended.complete(exitCode);
        }, 0, POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

}
