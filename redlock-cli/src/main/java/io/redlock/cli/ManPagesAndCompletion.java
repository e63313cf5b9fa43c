package io.redlock.cli;

import io.redlock.testkit.RedisBinary;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Build time only (the package phase runs it; it is left out of the jar): writes the bash/zsh completion script
 * and the AsciiDoc sources of the man pages, from the same command model the program runs.
 * Arguments: the completion file, the directory for the AsciiDoc pages.
 */
final class ManPagesAndCompletion {

    private ManPagesAndCompletion() {
    }

    public static void main(String[] args) throws IOException {
        CommandLine cli = RedlockCli.commandLine();
        Path completion = Path.of(args[0]);
        Files.createDirectories(completion.toAbsolutePath().getParent());
        Files.writeString(completion, withOurInstallation(AutoComplete.bash("redlock", cli)));
        forManPages(cli.getCommandSpec());
        File pages = new File(args[1]);
        Files.createDirectories(pages.toPath());
        int code = ManPageGenerator.generateManPage(pages, null, new boolean[0], true, cli.getCommandSpec());
        if (code != 0) {
            throw new IllegalStateException("the man page generator failed with exit code " + code);
        }
        try (var adoc = Files.newDirectoryStream(pages.toPath(), "*.adoc")) {
            for (Path page : adoc) {
                Files.writeString(page, ENVIRONMENT + seeAlso(page), java.nio.file.StandardOpenOption.APPEND);
            }
        }
    }

    /**
     * The completion script with its installation notes about this distribution's files: picocli's name files
     * ({@code *_completion} in a {@code bin} directory) that it does not have.
     */
    static String withOurInstallation(String script) {
        int from = script.indexOf("# Installation\n");
        int to = script.indexOf("# Documentation\n");
        if (from < 0 || to < from) {
            throw new IllegalStateException("picocli's completion script has no Installation section to replace");
        }
        return script.substring(0, from) + String.join("\n", "# Installation", "# ------------", "#",
                "# Source this file from ~/.bashrc (it is completion/redlock in the distribution):",
                "#", "#   . /path/to/redlock-<version>/completion/redlock", "#",
                "# or copy it to /etc/bash_completion.d/redlock (with bash-completion installed).", "#", "")
                + script.substring(to);
    }

    /** The ENVIRONMENT section every page ends with. */
    static final String ENVIRONMENT = String.join("\n", "", "== Environment", "",
            NodeOptions.ENV_NODES + "::",
            "  The nodes when --nodes is not given: comma-separated redis:// URIs (prefer "
                    + PasswordFile.ENV + " to a password in them, which every local user sees in ps).",
            NodeOptions.ENV_NODE_TIMEOUT + "::",
            "  How long to wait for one node's reply when --node-timeout is not given (default 50ms).",
            PasswordFile.ENV + "::",
            "  A file whose first line is the nodes' password, as --password-file; refused unless only its owner can"
                    + " read and write it (chmod 600).",
            "REDLOCK_JAVA_OPTS::",
            "  More JVM options for the command (the last one given wins).",
            "REDLOCK_CDS::",
            "  off: no class-data archive for faster starts (by default one is made in lib/ when it is writable).",
            "JAVA_HOME::",
            "  The Java (17 or later) to run on; without it, the java on the PATH.",
            RedisBinary.ENV_OVERRIDE + "::",
            "  For servers and demo: the redis-server to start (by default the one on the PATH, else the one in the"
                    + " distribution's embedded-redis jar; " + RedisBinary.EMBEDDED + " picks that one).",
            "");

    /** The SEE ALSO section of {@code page}: the other pages of the command. */
    private static String seeAlso(Path page) {
        String name = page.getFileName().toString().replace(".adoc", "");
        List<String> others = new ArrayList<>(List.of("redlock(1)"));
        for (String command : ExitCodes.commands()) {
            others.add("redlock-" + command + "(1)");
        }
        others.remove(name + "(1)");
        return String.join("\n", "", "== See also", "", String.join(", ", others), "");
    }

    /**
     * For the man pages: the generator leaves out a footer without a heading (ours carry their own, "Examples:",
     * "Exit codes:"), and typesets footer text and a custom synopsis (joins lines, turns "--" into a dash): the
     * indented example lines and the synopsis lines go into literal blocks, so that they stay as they are, ready to
     * paste.
     */
    private static void forManPages(CommandLine.Model.CommandSpec spec) {
        String[] footer = spec.usageMessage().footer();
        if (footer.length > 0 && spec.usageMessage().footerHeading().isEmpty()) {
            spec.usageMessage().footerHeading("Examples");
            // the help's own "Examples:" line would repeat the section's heading
            int from = footer[0].replace("%n", "").startsWith("Example") ? 1 : 0;
            spec.usageMessage().footer(literalExamples(Arrays.copyOfRange(footer, from, footer.length)));
        }
        if (!spec.usageMessage().exitCodeListHeading().isEmpty()) { // "Exit codes:" on a line of its own in the help
            spec.usageMessage().exitCodeListHeading("Exit codes");
        }
        String[] synopsis = spec.usageMessage().customSynopsis();
        if (synopsis.length > 0) { // the help aligns its lines after "Usage: "; a man page starts each at the margin
            List<String> lines = new ArrayList<>(List.of("...."));
            Arrays.stream(synopsis).map(String::strip).forEach(lines::add);
            lines.add("....");
            spec.usageMessage().customSynopsis(lines.toArray(String[]::new));
        }
        spec.subcommands().values().forEach(sub -> forManPages(sub.getCommandSpec()));
    }

    private static String[] literalExamples(String[] footer) {
        List<String> lines = new ArrayList<>();
        boolean literal = false;
        for (String line : footer) {
            boolean example = line.startsWith("  ");
            if (example != literal) {
                lines.addAll(example ? List.of("", "....") : List.of("....", ""));
                literal = example;
            }
            lines.add(example ? line.substring(2) : line);
        }
        if (literal) {
            lines.add("....");
        }
        return lines.toArray(String[]::new);
    }
}
