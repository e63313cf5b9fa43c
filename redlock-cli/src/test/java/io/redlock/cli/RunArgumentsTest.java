package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.LockTarget;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code redlock run} locks and runs, for each form of its command line (parsing only, no node). */
class RunArgumentsTest {

    private static TargetOptions.Invocation resolve(String... args) {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(args);
        return run.targets.resolve(run.resource, run.command);
    }

    @Test
    void theFirstArgumentIsTheResourceWithOrWithoutTheDelimiterAsBefore() {
        assertThat(resolve("job", "true")).isEqualTo(new TargetOptions.Invocation(LockTarget.of("job"),
                List.of("true")));
        assertThat(resolve("job", "--", "sh", "-c", "exit 3")).isEqualTo(new TargetOptions.Invocation(
                LockTarget.of("job"), List.of("sh", "-c", "exit 3")));
        assertThat(resolve("--", "job", "ls", "-l").target()).isEqualTo(LockTarget.of("job"));
        assertThat(resolve("job", "./report.sh", "--", "--full").command()).containsExactly("./report.sh", "--full");
    }

    @Test
    void repeatedResourceOptionsAreOneLockOfSeveralAndTheCommandFollowsTheDelimiter() {
        TargetOptions.Invocation several = resolve("--resource", "a", "--ttl", "5s", "--resource", "b", "--", "sh",
                "-c", "echo -- x", "--", "y");
        assertThat(several.target()).isEqualTo(LockTarget.all(List.of("a", "b")));
        assertThat(several.command()).containsExactly("sh", "-c", "echo -- x", "--", "y");
    }

    @Test
    void oneResourceOptionIsTheSameLockAsTheResourceArgument() {
        assertThat(resolve("--resource", "job", "--", "true").target()).isEqualTo(LockTarget.of("job"));
    }

    @Test
    void readAndWriteNameOneResourcesReadOrWriteLock() {
        assertThat(resolve("--read", "catalog", "--", "cat", "x")).isEqualTo(new TargetOptions.Invocation(
                LockTarget.read("catalog"), List.of("cat", "x")));
        assertThat(resolve("--write=catalog", "--", "true").target()).isEqualTo(LockTarget.write("catalog"));
    }

    @Test
    void theResourcesRulesAreTheLibrarysCheckedWhenTheLockIsAskedFor() {
        // duplicates, blanks and too many pass parsing: Redlock refuses them before sending anything (RunKindsIT)
        assertThat(resolve("--resource", "a", "--resource", "a", "--", "true").target().resources())
                .containsExactly("a", "a");
    }

    @Test
    void aResourceArgumentBesideALockOptionIsAUsageError() {
        assertThatThrownBy(() -> resolve("a", "--resource", "b", "--", "true"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("RESOURCE 'a' and --resource both name what to lock: give one of them (with --resource,"
                        + " only the command follows --)");
        assertThatThrownBy(() -> resolve("--read", "r", "a", "--", "true"))
                .hasMessageContaining("RESOURCE 'a' and --read both name what to lock");
    }

    @Test
    void withALockOptionTheCommandNeedsTheDelimiter() {
        assertThatThrownBy(() -> resolve("--write", "w", "./job.sh")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("with --write, put -- before the command");
    }

    @Test
    void readOrWriteWithAnotherLockOptionIsAUsageError() {
        assertThatThrownBy(() -> resolve("--read", "r", "--resource", "a", "--resource", "b", "--", "true"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageStartingWith("--resource and --read do not combine");
        assertThatThrownBy(() -> resolve("--read", "r", "--write", "r", "--", "true"))
                .hasMessageStartingWith("--read and --write do not combine");
    }

    @Test
    void aMissingCommandOrResourceIsAUsageError() {
        assertThatThrownBy(() -> resolve("--read", "r", "--")).hasMessageContaining("'CMD'");
        assertThatThrownBy(() -> resolve("job")).hasMessageContaining("'CMD'");
        assertThatThrownBy(() -> resolve()).hasMessageContaining("'RESOURCE', 'CMD'");
    }
}
