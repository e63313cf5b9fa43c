package io.redlock.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The nodes' password, read from a file only its owner can read or write (as ssh treats a private key): on no command
 * line, where every local user sees it in {@code ps}, and in no environment, which a job inherits. The password is the
 * file's first line, without its line end.
 */
final class PasswordFile {

    /** The environment variable naming the file when {@code --password-file} is not given. */
    static final String ENV = "REDLOCK_PASSWORD_FILE";

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private PasswordFile() {
    }

    /**
     * The password in {@code file}.
     *
     * @throws IllegalArgumentException (a usage error) if the file cannot be read, is open to others than its owner,
     *                                  or holds no password; the message names the file, never its content
     */
    static String read(Path file) {
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            if (permissions.stream().anyMatch(OTHERS::contains)) {
                throw new IllegalArgumentException("password file " + file + " is open to others than its owner ("
                        + PosixFilePermissions.toString(permissions) + "): chmod 600 " + file);
            }
        } catch (UnsupportedOperationException notPosix) {
            // a file system without POSIX permissions: nothing to check
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("password file " + file + " does not exist");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read password file " + file + ": " + e.getMessage());
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read password file " + file + ": " + e.getMessage());
        }
        if (lines.isEmpty() || lines.get(0).isEmpty()) {
            throw new IllegalArgumentException("password file " + file + " holds no password on its first line");
        }
        return lines.get(0);
    }
}
