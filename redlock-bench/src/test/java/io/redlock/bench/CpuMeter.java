package io.redlock.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU time spent so far by this JVM and by the Redis nodes (from {@code /proc/<pid>/stat}, Linux), and the bytes
 * this JVM's threads allocated, so a window can report CPU and allocation per pair: on a shared 2-core machine that
 * is steadier than pairs per second, and it says which side bounds the throughput.
 */
final class CpuMeter {

    /** USER_HZ: the unit of utime and stime in /proc/<pid>/stat; 100 on every Linux this runs on. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    /**
     * Cumulative CPU nanoseconds of the client, of all nodes and of the whole machine (every process, from
     * {@code /proc/stat}; 0 if unknown), and bytes the client allocated, at one instant.
     */
    record Sample(long clientNanos, long serverNanos, long machineNanos, long allocatedBytes) {
    }

    /** What threads that have ended allocated (they no longer show in the thread bean): see {@link #threadEnds}. */
    private static final java.util.concurrent.atomic.LongAdder ENDED = new java.util.concurrent.atomic.LongAdder();
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final List<Long> serverPids;

    CpuMeter(List<Long> serverPids) {
        this.serverPids = List.copyOf(serverPids);
    }

    Sample sample() {
        long client = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long server = 0;
        for (long pid : serverPids) {
            server += processCpuNanos(pid);
        }
        return new Sample(client, server, machineCpuNanos(), allocatedBytes());
    }

    /** Busy CPU time of all cores since boot: the first line of /proc/stat without idle and iowait; 0 if unknown. */
    private static long machineCpuNanos() {
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < Math.min(fields.length, 9); i++) {
                if (i != 4 && i != 5) { // idle, iowait
                    busy += Long.parseLong(fields[i]);
                }
            }
            return busy * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** A thread the harness started is about to end: its allocations still count. */
    static void threadEnds() {
        ENDED.add(THREADS.getCurrentThreadAllocatedBytes());
    }

    /** Bytes allocated by this JVM's live threads and by the harness threads that ended. */
    private static long allocatedBytes() {
        long total = ENDED.sum();
        for (long bytes : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
            total += Math.max(0, bytes);
        }
        return total;
    }

    /** utime + stime of a process, or 0 if it cannot be read (then the figure is shown as unknown). */
    private static long processCpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the fields after the command name, which is in parentheses and may contain spaces
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14 and 15
            return ticks * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
