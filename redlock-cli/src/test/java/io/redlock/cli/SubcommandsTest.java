package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A run builds the model of the subcommand it names only; help and typos get all of them. */
class SubcommandsTest {

    private static List<String> names(String... args) {
        List<String> names = new ArrayList<>();
        for (Supplier<Object> subcommand : Subcommands.neededFor(args)) {
            names.add(new picocli.CommandLine(subcommand.get()).getCommandName());
        }
        return names;
    }

    @Test
    void aNamedSubcommandIsTheOnlyOneBuilt() {
        assertThat(names("acquire", "job", "--ttl", "30s")).containsExactly("acquire");
        assertThat(names("run", "job", "--", "acquire")).containsExactly("run");
        assertThat(names("--verbose", "doctor")).containsExactly("doctor");
    }

    @Test
    void helpTyposAndNoArgumentsGetAll() {
        List<String> all = List.copyOf(Subcommands.ALL.keySet());
        assertThat(names()).containsExactlyElementsOf(all);
        assertThat(names("help", "run")).containsExactlyElementsOf(all);
        assertThat(names("--help")).containsExactlyElementsOf(all);
        assertThat(names("acquier", "job")).containsExactlyElementsOf(all);
    }

    @Test
    void onlyABareVersionOptionSkipsTheModel() {
        assertThat(RedlockCli.versionOnly(new String[] {"--version"})).isTrue();
        assertThat(RedlockCli.versionOnly(new String[] {"-V"})).isTrue();
        assertThat(RedlockCli.versionOnly(new String[] {"acquire", "--version"})).isFalse();
        assertThat(RedlockCli.versionOnly(new String[] {"--version", "--help"})).isFalse();
        assertThat(RedlockCli.versionOnly(new String[0])).isFalse();
    }

    @Test
    void theWholeCommandListsEverySubcommand() {
        assertThat(RedlockCli.commandLine().getSubcommands().keySet()).containsExactlyElementsOf(
                Subcommands.ALL.keySet());
    }
}
