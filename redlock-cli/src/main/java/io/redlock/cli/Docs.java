package io.redlock.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Build time only (the package phase runs it; it is left out of the jar): writes the bash/zsh completion script
 * and the AsciiDoc sources of the man pages, from the same command model the program runs.
 * Arguments: the completion file, the directory for the AsciiDoc pages.
 */
final class Docs {

    private Docs() {
    }

    public static void main(String[] args) throws IOException {
        CommandLine cli = RedlockCli.commandLine();
        Path completion = Path.of(args[0]);
        Files.createDirectories(completion.toAbsolutePath().getParent());
        Files.writeString(completion, AutoComplete.bash("redlock", cli));
        File pages = new File(args[1]);
        Files.createDirectories(pages.toPath());
        int code = ManPageGenerator.generateManPage(pages, null, new boolean[0], true, cli.getCommandSpec());
        if (code != 0) {
            throw new IllegalStateException("the man page generator failed with exit code " + code);
        }
    }
}
