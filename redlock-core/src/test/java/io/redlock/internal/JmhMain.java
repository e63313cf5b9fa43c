package io.redlock.internal;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the JMH microbenchmarks of the implementation (the {@code *Bench} classes in {@code io.redlock.internal}'s
 * packages, test sources, so they reach package-private classes without a split package) under {@code exec:java}:
 * {@code mvn -pl redlock-core -am test-compile exec:java@jmh -Dexec.args="-f 1 -wi 5 -i 5"}, arguments as for
 * {@code org.openjdk.jmh.Main}. JMH starts each fork with {@code java.class.path}, which under {@code exec:java} is
 * Maven's launcher; this first sets it to the class path exec:java built, so the forks find the benchmarks.
 */
public final class JmhMain {

    private JmhMain() {
    }

    public static void main(String[] args) throws Exception {
        if (Thread.currentThread().getContextClassLoader() instanceof URLClassLoader loader) {
            List<String> entries = new ArrayList<>();
            for (URL url : loader.getURLs()) {
                entries.add(file(url));
            }
            System.setProperty("java.class.path", String.join(File.pathSeparator, entries));
        }
        org.openjdk.jmh.Main.main(args);
    }

    private static String file(URL url) {
        try {
            return Path.of(url.toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a class path entry: " + url, e);
        }
    }
}
