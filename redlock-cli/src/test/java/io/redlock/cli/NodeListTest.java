package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * A node list is split at commas by one rule, whether it comes from {@code --nodes} or {@code $REDLOCK_NODES}: blanks
 * around an entry go, empty entries go, and every other character (a quote in a password, say) stays in its entry
 * without a word from the parser.
 */
class NodeListTest {

    @Command(name = "probe")
    static final class Probe {
        @Mixin
        NodeOptions nodes;
    }

    private static List<String> parsed(String... args) {
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs(args);
        return probe.nodes.uris();
    }

    @Test
    void theOptionsListIsSplitLikeTheEnvironmentsList() {
        String list = " redis://127.0.0.1:1, redis://127.0.0.1:2 ,,redis://127.0.0.1:3";

        assertThat(parsed("--nodes", list)).isEqualTo(NodeOptions.split(list))
                .containsExactly("redis://127.0.0.1:1", "redis://127.0.0.1:2", "redis://127.0.0.1:3");
    }

    @Test
    void repeatedOptionsAddTheirNodes() {
        assertThat(parsed("--nodes", "redis://127.0.0.1:1,redis://127.0.0.1:2", "--nodes", "redis://127.0.0.1:3"))
                .containsExactly("redis://127.0.0.1:1", "redis://127.0.0.1:2", "redis://127.0.0.1:3");
    }

    @Test
    void aQuoteInAPasswordStaysInItsNodeAndTheParserPrintsNothing() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<String> uris;
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            uris = parsed("--nodes", "redis://:ab\"cd@127.0.0.1:1,redis://127.0.0.1:2");
        } finally {
            System.setErr(stderr);
        }

        assertThat(uris).containsExactly("redis://:ab\"cd@127.0.0.1:1", "redis://127.0.0.1:2");
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
