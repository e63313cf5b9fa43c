package io.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code redis-server} binary the testkit runs: {@code $REDLOCK_REDIS_SERVER} if set, else {@code redis-server}
 * on the PATH, else the Linux binary shipped inside the {@code com.github.codemonstur:embedded-redis} jar (extracted
 * once per JVM into a temporary directory). {@code REDLOCK_REDIS_SERVER=embedded} picks the jar's binary even when
 * one is on the PATH. Which one, and its version, is logged once.
 */
public final class RedisBinary {

    /** Environment variable naming a redis-server binary to use instead of the search. */
    public static final String ENV_OVERRIDE = "REDLOCK_REDIS_SERVER";

    /** The value of {@link #ENV_OVERRIDE} that selects the binary inside the embedded-redis jar. */
    public static final String EMBEDDED = "embedded";

    private static final Logger log = LoggerFactory.getLogger(RedisBinary.class);
    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)\\.(\\d+)");
    private static volatile RedisBinary instance;
    private static volatile RedisBinary embedded;

    private final Path path;
    private final String origin;
    private final String version;
    private final int major;

    private RedisBinary(Path path, String origin) {
        this.path = path;
        this.origin = origin;
        String out = run(path, "--version");
        Matcher m = VERSION.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("cannot read the version of " + path + ": " + out.trim());
        }
        this.version = m.group(1) + "." + m.group(2) + "." + m.group(3);
        this.major = Integer.parseInt(m.group(1));
    }

    /** The binary for this JVM, found (and logged) on first use. */
    public static RedisBinary get() {
        RedisBinary found = instance;
        if (found == null) {
            synchronized (RedisBinary.class) {
                found = instance;
                if (found == null) {
                    found = locate(System.getenv());
                    log.info("redis-server: {} (version {}, {})", found.path, found.version, found.origin);
                    instance = found;
                }
            }
        }
        return found;
    }

    /**
     * The binary inside the embedded-redis jar, extracted once per JVM, whatever {@link #get()} chose: the fallback
     * for machines without redis-server, so tests can run it where one is installed too.
     */
    static RedisBinary embedded() {
        RedisBinary found = embedded;
        if (found == null) {
            synchronized (RedisBinary.class) {
                found = embedded;
                if (found == null) {
                    found = new RedisBinary(extractEmbedded(), "embedded-redis jar");
                    log.debug("embedded redis-server extracted: {} (version {})", found.path, found.version);
                    embedded = found;
                }
            }
        }
        return found;
    }

    public Path path() {
        return path;
    }

    /** For example {@code 7.0.15}. */
    public String version() {
        return version;
    }

    public int majorVersion() {
        return major;
    }

    /** Where the binary came from: environment, PATH or embedded jar. */
    public String origin() {
        return origin;
    }

    /** The binary this environment ({@code REDLOCK_REDIS_SERVER}, {@code PATH}) selects. */
    static RedisBinary locate(Map<String, String> env) {
        String override = env.get(ENV_OVERRIDE);
        if (EMBEDDED.equals(override)) {
            return embedded();
        }
        if (override != null && !override.isBlank()) {
            return new RedisBinary(Path.of(override), "from $" + ENV_OVERRIDE);
        }
        String pathVar = env.get("PATH");
        if (pathVar != null) {
            for (String dir : pathVar.split(":")) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, "redis-server");
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return new RedisBinary(candidate, "on the PATH");
                }
            }
        }
        return embedded();
    }

    private static Path extractEmbedded() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            throw new IllegalStateException("no redis-server on the PATH and no embedded binary for " + os);
        }
        String resource = switch (arch) {
            case "amd64", "x86_64" -> "redis-server-6.2.6-v5-linux-amd64";
            case "aarch64", "arm64" -> "redis-server-6.2.7-linux-arm64";
            default -> throw new IllegalStateException("no redis-server on the PATH and no embedded binary for "
                    + arch);
        };
        try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " not found on the classpath (embedded-redis jar)");
            }
            Path dir = Files.createTempDirectory("redlock-redis-bin-");
            dir.toFile().deleteOnExit(); // registered first, deleted last (after the binary in it)
            Path binary = dir.resolve("redis-server");
            binary.toFile().deleteOnExit();
            Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
            if (!binary.toFile().setExecutable(true, true)) {
                throw new IOException("cannot make " + binary + " executable");
            }
            return binary;
        } catch (IOException e) {
            throw new IllegalStateException("cannot extract the embedded redis-server: " + e.getMessage(), e);
        }
    }

    private static String run(Path binary, String arg) {
        try {
            Process p = new ProcessBuilder(binary.toString(), arg).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + binary + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + binary, e);
        }
    }
}
