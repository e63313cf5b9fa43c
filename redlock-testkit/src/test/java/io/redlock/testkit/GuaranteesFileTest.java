package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A section is replaced in place, appended when absent, and read back whole; the rest of the file is kept. */
class GuaranteesFileTest {

    private static final String RUN = GuaranteesFile.RANDOMIZED_RUN;

    @TempDir
    Path dir;

    @Test
    void aSectionInTheMiddleIsReplacedAndTheRestKept() throws Exception {
        Path file = dir.resolve("g.md");
        Files.writeString(file, "# T\n\ntable\n\n" + RUN + "\n\nold\n\n## Later\n\nkept\n");
        GuaranteesFile.replaceSection(file, RUN, RUN + "\n\nnew\n\n");
        assertThat(Files.readString(file)).isEqualTo("# T\n\ntable\n\n" + RUN + "\n\nnew\n\n## Later\n\nkept\n");
        assertThat(GuaranteesFile.section(file, RUN)).isEqualTo(RUN + "\n\nnew\n\n");
    }

    @Test
    void anAbsentSectionIsAppendedAndReadsAsEmptyBefore() throws Exception {
        Path file = dir.resolve("g.md");
        Files.writeString(file, "# T\n\ntable\n");
        assertThat(GuaranteesFile.section(file, RUN)).isEmpty();
        assertThat(GuaranteesFile.section(dir.resolve("missing.md"), RUN)).isEmpty();
        GuaranteesFile.replaceSection(file, RUN, RUN + "\n\nnew");
        assertThat(Files.readString(file)).isEqualTo("# T\n\ntable\n\n" + RUN + "\n\nnew\n");
        assertThat(GuaranteesFile.section(file, RUN)).isEqualTo(RUN + "\n\nnew\n");
    }

    @Test
    void aSectionWithoutItsHeadingIsRefused() throws Exception {
        Path file = dir.resolve("g.md");
        Files.writeString(file, "# T\n");
        assertThatThrownBy(() -> GuaranteesFile.replaceSection(file, RUN, "## Other\n\nx"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
