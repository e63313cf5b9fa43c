package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What redlock --version says, from what the build recorded. */
class BuildInfoTest {

    @Test
    void namesTheVersionAndTheCommit() {
        assertThat(new BuildInfo("1.2.0", "0123456789ab").line()).isEqualTo("redlock 1.2.0 (commit 0123456789ab)");
        assertThat(new BuildInfo("1.2.0", "0123456789ab-dirty").line())
                .isEqualTo("redlock 1.2.0 (commit 0123456789ab-dirty)");
    }

    @Test
    void saysSoWhenTheBuildRanOutsideGit() {
        assertThat(new BuildInfo("1.2.0", "unknown").line()).isEqualTo("redlock 1.2.0 (commit unknown: built outside git)");
        assertThat(new BuildInfo("1.2.0", null).line()).isEqualTo("redlock 1.2.0 (commit unknown: built outside git)");
    }

    @Test
    void saysSoWhenNothingWasRecorded() {
        assertThat(new BuildInfo(null, null).line()).startsWith("redlock development build");
    }

    @Test
    void thisBuildRecordedItsVersionAndCommit() {
        BuildInfo recorded = BuildInfo.load();
        assertThat(recorded.version()).isNotBlank().doesNotContain("${");
        assertThat(recorded.commit()).isNotBlank().doesNotContain("${");
    }
}
