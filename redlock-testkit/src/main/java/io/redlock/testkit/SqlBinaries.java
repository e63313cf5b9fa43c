package io.redlock.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the database servers' binaries are: those of Debian's packages. Absent ones fail the test that needs them
 * with the package to install, never a skip: {@code .ci/run} installs them as it installs redis-server.
 */
final class SqlBinaries {

    static final String POSTGRES_PACKAGE = "postgresql";
    static final String MARIADB_PACKAGE = "mariadb-server";
    private static final Path POSTGRES_VERSIONS = Path.of("/usr/lib/postgresql");

    private SqlBinaries() {
    }

    /** The newest {@code /usr/lib/postgresql/<major>/bin} holding {@code initdb}, {@code postgres} and {@code psql}. */
    static Path postgresBin() {
        return postgresBin(POSTGRES_VERSIONS);
    }

    /** The newest {@code <versions>/<major>/bin} with the three binaries; else fails naming the package. */
    static Path postgresBin(Path versionsDir) {
        try (Stream<Path> versions = Files.list(versionsDir)) {
            Optional<Path> newest = versions.map(v -> v.resolve("bin"))
                    .filter(bin -> executable(bin.resolve("initdb")) && executable(bin.resolve("postgres"))
                            && executable(bin.resolve("psql")))
                    .max(Comparator.comparingInt(SqlBinaries::major));
            if (newest.isPresent()) {
                return newest.get();
            }
        } catch (IOException e) {
            // no such directory: not installed
        }
        throw missing("PostgreSQL (initdb, postgres, psql in " + versionsDir + "/<version>/bin)",
                POSTGRES_PACKAGE);
    }

    /** {@code mariadbd}. */
    static Path mariadbd() {
        return find("mariadbd", "/usr/sbin/mariadbd", "/usr/bin/mariadbd");
    }

    /** {@code mariadb-install-db}, which creates a data directory. */
    static Path mariadbInstallDb() {
        return find("mariadb-install-db", "/usr/bin/mariadb-install-db", "/usr/sbin/mariadb-install-db");
    }

    /** The first of {@code candidates} that is executable; else fails naming Debian's {@code mariadb-server}. */
    static Path find(String name, String... candidates) {
        for (String candidate : candidates) {
            if (executable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        throw missing("MariaDB (" + name + ")", MARIADB_PACKAGE);
    }

    private static IllegalStateException missing(String what, String debianPackage) {
        return new IllegalStateException(what + " is not installed: install Debian's package " + debianPackage
                + " (apt-get install " + debianPackage + "; .ci/run does it on a fresh machine)");
    }

    private static boolean executable(Path file) {
        return Files.isRegularFile(file) && Files.isExecutable(file);
    }

    private static int major(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
