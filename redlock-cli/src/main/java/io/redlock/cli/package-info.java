/**
 * The {@code redlock} command (picocli): {@code RedlockCli} and one {@code *Command} class per subcommand, listed in
 * {@code Subcommands}; {@code ExitCodes} is the exit-code contract of all of them.
 *
 * <p>{@code run} supervises its job ({@code Job}, {@code ProcessGroup}, {@code Lifeline} and the perl stub
 * {@code job.pl}): the job has a process group of its own, which is stopped before the lock is released, and a
 * watcher stops it if redlock dies or stalls. Every line printed passes {@code Scrubbed}, which hides the passwords
 * of the node URIs.
 *
 * <p>Called by {@code bin/redlock} ({@code main}) and by tests ({@code execute}). Commands run on the main thread;
 * the job's supervision runs on the {@code redlock-run-job} thread, signal handlers on the JVM's signal thread, and
 * lease callbacks on the library's threads.
 */
package io.redlock.cli;
