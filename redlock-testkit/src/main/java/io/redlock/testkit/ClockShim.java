package io.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clock-shift shim ({@code clockshift.c}, an LD_PRELOAD library), compiled with gcc once per JVM into the build
 * directory. A server started with it reads its wall-clock offset from a file on every clock call, so the offset can
 * change while it runs.
 *
 * <p>The build directory is named by the system property {@value #BUILD_DIR_PROPERTY} (Maven's surefire and failsafe
 * set it to the module's {@code target}); without it the shim goes to a temporary directory.
 */
public final class ClockShim {

    /** The environment variable the shim reads the offset file's path from. */
    public static final String OFFSET_FILE_ENV = "REDLOCK_CLOCK_OFFSET_FILE";

    /** The system property naming the build directory the shim is compiled into. */
    public static final String BUILD_DIR_PROPERTY = "redlock.build.dir";

    private static final Logger log = LoggerFactory.getLogger(ClockShim.class);
    private static Path library;

    private ClockShim() {
    }

    /** The compiled shim. @throws IllegalStateException if gcc is missing or fails */
    public static synchronized Path library() {
        if (library == null) {
            library = compile();
        }
        return library;
    }

    /** True if gcc is on the PATH, so the shim can be built here. */
    public static boolean available() {
        try {
            Process gcc = new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start();
            gcc.getInputStream().readAllBytes();
            return gcc.waitFor(10, TimeUnit.SECONDS) && gcc.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A fresh directory (one per JVM: forks may build at once) under the build directory, or a temporary one. */
    static Path outputDirectory() throws IOException {
        String buildDir = System.getProperty(BUILD_DIR_PROPERTY);
        if (buildDir == null || buildDir.isBlank()) {
            return Files.createTempDirectory("redlock-clockshift-");
        }
        Path parent = Files.createDirectories(Path.of(buildDir, "clockshift"));
        return Files.createTempDirectory(parent, "jvm-");
    }

    private static Path compile() {
        try (InputStream source = ClockShim.class.getResourceAsStream("clockshift.c")) {
            if (source == null) {
                throw new IllegalStateException("clockshift.c is missing from the testkit jar");
            }
            Path dir = outputDirectory();
            Processes.deleteOnExit(dir);
            Path c = dir.resolve("clockshift.c");
            Path so = dir.resolve("libclockshift.so");
            Files.copy(source, c);
            Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O2", "-Wall", "-o", so.toString(),
                    c.toString()).redirectErrorStream(true).start();
            String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!gcc.waitFor(60, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
                throw new IllegalStateException("gcc could not build the clock shim: " + output.trim());
            }
            log.debug("clock shim built: {}", so);
            return so;
        } catch (IOException e) {
            throw new IllegalStateException("cannot build the clock shim (is gcc installed?): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the clock shim", e);
        }
    }
}
