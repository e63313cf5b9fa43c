package io.redlock.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The unprivileged user a database server runs as when the tests run as root (PostgreSQL refuses root, MariaDB wants
 * it not): {@code nobody}, through {@code setpriv}, which execs the server, so the pid the testkit holds is the
 * server's own. Not root: the server runs as the current user, unchanged.
 */
final class ServerUser {

    static final String USER = "nobody";
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private ServerUser() {
    }

    /** {@code command} as the unprivileged user when running as root; else {@code command} itself. */
    static List<String> command(List<String> command) {
        if (!ROOT) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("setpriv", "--reuid=" + USER, "--regid=" + group().getName(),
                "--clear-groups"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Gives {@code dir} and everything in it to the unprivileged user (when running as root). */
    static void own(Path dir) {
        if (!ROOT) {
            return;
        }
        UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
        try (Stream<Path> files = Files.walk(dir)) {
            UserPrincipal user = lookup.lookupPrincipalByName(USER);
            GroupPrincipal group = group();
            for (Path file : (Iterable<Path>) files::iterator) {
                PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
                view.setOwner(user);
                view.setGroup(group);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot give " + dir + " to user " + USER + ": " + e.getMessage(), e);
        }
    }

    /** The primary group of {@code nobody} ({@code nogroup} on Debian). */
    private static GroupPrincipal group() {
        try {
            Process id = new ProcessBuilder("id", "-gn", USER).redirectErrorStream(true).start();
            String name = new String(id.getInputStream().readAllBytes()).trim();
            if (id.waitFor() != 0) {
                throw new IllegalStateException("no user " + USER + " to run the database server as: " + name);
            }
            return Path.of("/").getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(name);
        } catch (IOException e) {
            throw new IllegalStateException("cannot look up the group of " + USER + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted looking up the group of " + USER, e);
        }
    }
}
