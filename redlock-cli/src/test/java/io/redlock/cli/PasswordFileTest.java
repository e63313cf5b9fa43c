package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A password file is read only when its owner alone may read it; its content is never part of a message. */
class PasswordFileTest {

    private static Path file(Path dir, String content, String permissions) throws Exception {
        Path file = dir.resolve("redis-password");
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    @Test
    void thePasswordIsTheFirstLineWithoutItsLineEnd(@TempDir Path dir) throws Exception {
        assertThat(PasswordFile.read(file(dir, "s3cret pw/x\r\nsecond line\n", "rw-------"))).isEqualTo("s3cret pw/x");
        assertThat(PasswordFile.read(file(dir, "only", "r--------"))).isEqualTo("only");
    }

    @Test
    void aFileOthersMayReadOrWriteIsRefusedWithTheCommandThatFixesIt(@TempDir Path dir) throws Exception {
        for (String open : new String[] {"rw-r--r--", "rw----r--", "rw--w----", "rw-----w-"}) {
            Path file = file(dir, "s3cret-pw", open);
            assertThatThrownBy(() -> PasswordFile.read(file)).as(open)
                    .hasMessageContaining("open to others than its owner (" + open + ")")
                    .hasMessageContaining("chmod 600 " + file).hasMessageNotContaining("s3cret");
        }
    }

    @Test
    void aMissingOrEmptyFileIsRefused(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> PasswordFile.read(dir.resolve("absent"))).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> PasswordFile.read(file(dir, "\nlater", "rw-------")))
                .hasMessageContaining("holds no password on its first line");
    }

    @Test
    void theCommandOfRunDoesNotInheritNodesWithAPassword() {
        assertThat(RunCommand.withheld(Map.of(NodeOptions.ENV_NODES, "redis://h:1,redis://:pw@h:2")))
                .containsExactly(NodeOptions.ENV_NODES);
        assertThat(RunCommand.withheld(Map.of(NodeOptions.ENV_NODES, "redis://h:1,redis://h:2"))).isEmpty();
        assertThat(RunCommand.withheld(Map.of("DATABASE_URL", "postgres://u:pw@db/app"))).isEmpty();
    }
}
