package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Missing database binaries fail the test that needs them, naming the Debian package to install: never a skip. */
class SqlBinariesTest {

    @Test
    void missingPostgresBinariesNameTheDebianPackage(@TempDir Path empty) {
        assertThatThrownBy(() -> SqlBinaries.postgresBin(empty)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("install Debian's package postgresql");
    }

    @Test
    void missingMariaDbBinariesNameTheDebianPackage(@TempDir Path empty) {
        assertThatThrownBy(() -> SqlBinaries.find("mariadbd", empty.resolve("mariadbd").toString()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("install Debian's package mariadb-server");
    }

    @Test
    void theNewestInstalledPostgresIsFound() {
        assertThat(SqlBinaries.postgresBin().resolve("postgres")).isExecutable();
    }
}
