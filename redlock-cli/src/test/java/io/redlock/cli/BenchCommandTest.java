package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** redlock bench runs what redlock-bench's build listed, and never Maven. */
class BenchCommandTest {

    @TempDir
    Path checkout;

    @Test
    void aCheckoutWithoutTheBenchBuildHasNoClassPath() throws Exception {
        Files.createDirectories(checkout.resolve("redlock-bench"));
        Files.writeString(checkout.resolve("redlock-bench/pom.xml"), "<project/>");
        assertThat(BenchCommand.classpath(checkout)).isEmpty();
        Files.createDirectories(checkout.resolve(BenchCommand.CLASSPATH_FILE).getParent());
        Files.writeString(checkout.resolve(BenchCommand.CLASSPATH_FILE), "/a.jar:/b.jar\n");
        assertThat(BenchCommand.classpath(checkout)).as("listed, but the harness is not compiled").isEmpty();
    }

    @Test
    void theClassPathIsTheHarnessThenWhatTheBuildListed() throws Exception {
        Path target = checkout.resolve("redlock-bench/target");
        Files.createDirectories(target.resolve("test-classes/io/redlock/bench"));
        Files.writeString(target.resolve("test-classes/io/redlock/bench/BenchMain.class"), "");
        Files.writeString(checkout.resolve(BenchCommand.CLASSPATH_FILE), "/a.jar:/b.jar\n");
        assertThat(BenchCommand.classpath(checkout)).contains(target.resolve("test-classes") + ":"
                + target.resolve("classes") + ":/a.jar:/b.jar");
    }

    @Test
    void theKindsOfLockRunUnlessSkippedOrAlone() {
        assertThat(properties()).as("the default run includes them").isEmpty();
        assertThat(properties("--no-kinds", "--rounds", "3")).containsExactly("-Dbench.rounds=3", "-Dbench.kinds=false");
        assertThat(properties("--kinds-only")).containsExactly("-Dbench.kinds.only=true");
    }

    private static java.util.List<String> properties(String... args) {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs(args);
        return bench.properties();
    }

    @Test
    void withoutTheBenchBuildItSaysHowToBuildItAndExits69() throws Exception {
        Files.createDirectories(checkout.resolve("redlock-bench"));
        Files.writeString(checkout.resolve("redlock-bench/pom.xml"), "<project/>");
        StringWriter err = new StringWriter();
        int code = new BenchCommand().runFrom(checkout, new PrintWriter(err, true));
        assertThat(code).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(err.toString()).contains("redlock-bench is not built").contains(BenchCommand.BUILD_HINT);
    }
}
