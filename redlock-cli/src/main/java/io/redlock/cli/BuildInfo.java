package io.redlock.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** What the build recorded in {@code build.properties}: the project version and the git commit. */
record BuildInfo(String version, String commit) {

    static final String RESOURCE = "build.properties";

    /** The recorded build, or null fields for what was not recorded (a class path without the filtered file). */
    static BuildInfo load() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return new BuildInfo(recorded(properties, "version"), recorded(properties, "commit"));
    }

    private static String recorded(Properties properties, String key) {
        String value = properties.getProperty(key);
        return value == null || value.isBlank() || value.startsWith("${") ? null : value.trim();
    }

    /** The line {@code redlock --version} prints. */
    String line() {
        if (version == null) {
            return "redlock development build (not built by Maven: no version or commit recorded)";
        }
        String from = commit == null || commit.equals("unknown") ? "commit unknown: built outside git" : "commit " + commit;
        return "redlock " + version + " (" + from + ")";
    }

    /** picocli's {@code --version}. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {load().line(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
        }
    }
}
