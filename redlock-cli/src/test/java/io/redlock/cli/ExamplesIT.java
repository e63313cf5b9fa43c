package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example of the help and of docs/CLI.md, pasted as a user would — into bash, in order, with
 * {@code redlock} on the PATH; crontab lines the way cron runs them — against real nodes. The jobs the examples
 * name ({@code ./build-report.sh}, {@code /opt/jobs/cleanup}, ...) are small scripts that log their runs.
 */
@WithRedisNodes(5)
class ExamplesIT {

    private static final List<String> JOBS = List.of("build-report.sh", "job.sh", "sync-orders.sh", "cleanup");

    @TempDir
    Path dir;

    private Path work;
    private Path jobs;
    private Path bin;
    private Path log;

    @BeforeEach
    void jobsAndPath() throws IOException {
        work = Files.createDirectories(dir.resolve("work"));
        jobs = Files.createDirectories(dir.resolve("jobs"));
        bin = Files.createDirectories(dir.resolve("bin"));
        log = dir.resolve("ran.log");
        for (String job : JOBS) {
            Path script = jobs.resolve(job);
            Files.writeString(script, "#!/bin/sh\necho \"" + job + " $* token=$REDLOCK_TOKEN\" >> '" + log + "'\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.createSymbolicLink(work.resolve(job), script);
        }
        Path redlock = Cli.distribution().resolve("bin").resolve("redlock").toAbsolutePath();
        Files.createSymbolicLink(bin.resolve("redlock"), redlock);
        Files.createSymbolicLink(work.resolve("redlock"), redlock); // the examples' ./redlock
    }

    @Test
    void everyHelpExampleWorksWhenPasted(RedisNodes nodes) throws Exception {
        List<String> script = new ArrayList<>();
        for (String command : Subcommands.ALL.keySet()) {
            script.addAll(Examples.shellLinesOfHelp(command.equals("help") ? help("--help") : help(command, "--help")));
        }
        assertThat(script).anyMatch(l -> l.startsWith("redlock run")).anyMatch(l -> l.contains("redlock acquire"))
                .anyMatch(l -> l.startsWith("redlock extend")).anyMatch(l -> l.startsWith("redlock release"))
                .anyMatch(l -> l.startsWith("redlock doctor")).anyMatch(l -> l.startsWith("redlock status"));
        Run run = bash(script, nodes);
        assertThat(run.code).as(run.output).isZero();
        assertThat(Files.readString(log)).contains("build-report.sh --full token=").contains("sync-orders.sh  token=")
                .contains("job.sh  token=");
    }

    @Test
    void theDocumentedExamplesWorkWhenPasted(RedisNodes nodes) throws Exception {
        List<String> script = Examples.runnable(Examples.markdownBlocks(cliDoc(), "## Examples", "bash"));
        assertThat(script).anyMatch(l -> l.startsWith("./redlock run")).anyMatch(l -> l.startsWith("export"));
        Run run = bash(script, nodes);
        assertThat(run.code).as(run.output).isZero();
        assertThat(Files.readString(log)).contains("build-report.sh --full token=");
    }

    @Test
    void theCrontabExamplesWorkAsCronRunsThem(RedisNodes nodes) throws Exception {
        List<Examples.Crontab> crontabs = List.of(Examples.crontabOfHelp(help("run", "--help")),
                Examples.crontab(Examples.markdownBlocks(cliDoc(), "## From cron", "crontab")));
        Path home = Files.createDirectories(dir.resolve("home"));
        int runs = 0;
        for (Examples.Crontab crontab : crontabs) {
            assertThat(crontab.commands()).isNotEmpty();
            for (String command : crontab.commands()) {
                // cron: an empty environment but for PATH, SHELL, HOME and LOGNAME, plus the crontab's own lines;
                // /bin/sh -c, in $HOME, no terminal
                List<String> cron = new ArrayList<>(List.of("env", "-i", "PATH=/usr/bin:/bin", "SHELL=/bin/sh",
                        "HOME=" + home, "LOGNAME=" + System.getProperty("user.name")));
                if (!Files.isExecutable(Path.of("/usr/bin/java"))) {
                    cron.add("JAVA_HOME=" + System.getProperty("java.home")); // what docs/CLI.md says to add then
                }
                // the examples run with the default node timeout unless told: on a loaded machine, a slow reply
                cron.add(NodeOptions.ENV_NODE_TIMEOUT + "=" + Cli.NODE_TIMEOUT); // would pass for a silent node
                crontab.environment().forEach(line -> cron.add(localize(line, nodes)));
                cron.addAll(List.of("/bin/sh", "-c", localize(command, nodes)));
                Run run = run(cron, home, Map.of());
                assertThat(run.code).as(command + "\n" + run.output).isZero();
                runs++;
            }
        }
        assertThat(Files.readString(log).lines().filter(l -> l.startsWith("cleanup"))).hasSize(runs);
    }

    private String help(String... args) throws Exception {
        Cli cli = Cli.startDistribution(Map.of(), args);
        assertThat(cli.waitFor()).as(cli.err()).isZero();
        return cli.out();
    }

    private static String cliDoc() throws IOException {
        return Files.readString(Path.of("..", "docs", "CLI.md")); // failsafe runs in redlock-cli/
    }

    private String localize(String line, RedisNodes nodes) {
        return Examples.localize(line, nodes.uris(), Cli.distribution().toAbsolutePath().toString(),
                jobs.toString());
    }

    private Run bash(List<String> lines, RedisNodes nodes) throws Exception {
        StringBuilder script = new StringBuilder("set -euxo pipefail\n");
        lines.forEach(line -> script.append(localize(line, nodes)).append('\n'));
        Path file = dir.resolve("examples.sh");
        Files.writeString(file, script);
        return run(List.of("bash", file.toString()), work, Map.of("PATH", bin + ":" + System.getenv("PATH"),
                NodeOptions.ENV_NODES, String.join(",", nodes.uris()), NodeOptions.ENV_NODE_TIMEOUT, Cli.NODE_TIMEOUT));
    }

    private record Run(int code, String output) {
    }

    private Run run(List<String> command, Path directory, Map<String, String> env) throws Exception {
        Path output = dir.resolve("output.txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File(
                        "/dev/null")));
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not finish in 120 s: " + command + "\n" + Files.readString(output));
        }
        return new Run(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }
}
