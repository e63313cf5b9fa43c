package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Help text is written unwrapped, one paragraph per line, and the renderer wraps it to the terminal: a line of the
 * text that stops mid-sentence would break there at every width.
 */
class HelpTextTest {

    @ParameterizedTest
    @ValueSource(ints = {60, 80, 120})
    void noParagraphOfAnyHelpBreaksMidSentenceAndNoLineIsWiderThanTheTerminal(int columns) {
        CommandLine cli = RedlockCli.commandLine();
        List<String> broken = new ArrayList<>();
        List<CommandLine> all = new ArrayList<>(List.of(cli));
        all.addAll(cli.getSubcommands().values());
        for (CommandLine command : all) {
            CommandSpec spec = command.getCommandSpec();
            check(spec.name() + " description", spec.usageMessage().description(), broken);
            check(spec.name() + " footer", spec.usageMessage().footer(), broken);
            for (OptionSpec option : spec.options()) {
                check(spec.name() + " " + option.longestName(), option.description(), broken);
            }
            command.setUsageHelpAutoWidth(false);
            command.setUsageHelpWidth(columns);
            String help = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
            // after the synopsis (the command's forms, kept whole), every line fits the terminal
            assertThat(help.lines().dropWhile(line -> !line.isEmpty()))
                    .as("%s --help at %d columns", spec.name(), columns)
                    .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(columns));
        }
        assertThat(broken).as("help lines that stop mid-sentence (write each paragraph as one string)").isEmpty();
    }

    /** A line of text that is not an example (indented), not a heading (ends with ':') and ends no sentence. */
    private static void check(String where, String[] lines, List<String> broken) {
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].replace("%n", "").strip();
            boolean example = lines[i].startsWith("  ");
            boolean last = i == lines.length - 1;
            if (!line.isEmpty() && !example && !line.matches(".*[.:!?)]$") && !(last && !line.contains(" "))) {
                broken.add(where + ": " + line);
            }
        }
    }
}
