package io.redlock.cli;

import io.redlock.testkit.RedisServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The training run of the class-data archive that {@code bin/redlock} creates (AppCDS): loads what short commands
 * load — the full help, {@code --version}, and an acquire, extend and release on one local redis-server it starts
 * and stops (without one, an acquire against a closed port still loads the client's connection classes). Prints
 * nothing; the launcher runs it once per installation and JVM, with {@code -XX:ArchiveClassesAtExit}.
 */
final class CdsTraining {

    private static final Pattern VALUE = Pattern.compile("\"value\":\"([^\"]+)\"");

    private CdsTraining() {
    }

    public static void main(String[] args) {
        run("--help");
        run("--version");
        for (String name : Subcommands.ALL.keySet()) {
            run(name, "--help");
        }
        try (RedisServer server = RedisServer.launch()) {
            String uri = server.uri();
            Matcher value = VALUE.matcher(run("acquire", "cds-training", "--ttl", "5s", "--nodes", uri));
            if (value.find()) {
                run("extend", "cds-training", "--value", value.group(1), "--ttl", "5s", "--nodes", uri);
                run("release", "cds-training", "--value", value.group(1), "--nodes", uri);
            }
        } catch (RuntimeException noServer) {
            run("acquire", "cds-training", "--ttl", "5s", "--nodes", "redis://127.0.0.1:1");
        }
        System.exit(0);
    }

    /** Runs one command line as {@code main} would (only the subcommand it names) and returns what it printed. */
    private static String run(String... args) {
        CommandLine cli = RedlockCli.configure(new CommandLine(new RedlockCli()), Subcommands.neededFor(args));
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(Writer.nullWriter()));
        cli.execute(args);
        return out.toString();
    }
}
