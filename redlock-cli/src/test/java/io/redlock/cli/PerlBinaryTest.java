package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A perl program reaches perl through its environment: never on the command line that {@code ps} shows. */
class PerlBinaryTest {

    private static final String PROGRAM = "print join(',', @ARGV), ';', (exists $ENV{" + PerlBinary.PROGRAM
            + "} ? 'inherited' : 'gone'), \"\\n\"; # sub marker";

    @Test
    void theCommandLineCarriesTheArgumentsButNotTheProgram() {
        ProcessBuilder perl = PerlBinary.process(PROGRAM, "a", "b");
        assertThat(String.join(" ", perl.command())).doesNotContain("sub marker").endsWith(" a b");
        assertThat(perl.environment()).containsEntry(PerlBinary.PROGRAM, PROGRAM);
    }

    @Test
    void theProgramRunsWithItsArgumentsAndLeavesNoVariableBehind() throws Exception {
        Process perl = PerlBinary.process(PROGRAM, "a", "b").redirectErrorStream(true).start();
        String out = new String(perl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(perl.waitFor()).as(out).isZero();
        assertThat(out).isEqualTo("a,b;gone\n");
    }

    @Test
    void aProgramThatDiesExitsNonZeroWithItsMessage() throws Exception {
        Process perl = PerlBinary.process("die \"redlock: no\\n\";").redirectErrorStream(true).start();
        String out = new String(perl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(perl.waitFor()).isNotZero();
        assertThat(out).isEqualTo("redlock: no\n");
    }
}
