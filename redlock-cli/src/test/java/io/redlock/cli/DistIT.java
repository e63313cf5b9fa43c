package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tarball the package phase built, unpacked elsewhere and run as a user would: no Maven, no checkout. */
@WithRedisNodes(5)
class DistIT {

    private static final Pattern TEST_LIBRARIES = Pattern.compile("(?i)junit|opentest4j|apiguardian|assertj|awaitility");

    @TempDir
    Path dir;

    private Path home;

    @BeforeEach
    void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("redlock.tarball", "target/redlock.tar.gz"));
        assertThat(tarball).as("the package phase builds it").isRegularFile();
        Cli tar = Cli.launchCommand(List.of("tar", "xzf", tarball.toString(), "-C", dir.toString()), Map.of());
        assertThat(tar.waitFor()).as(tar.err()).isZero();
        home = dir.resolve("redlock-" + System.getProperty("redlock.version"));
    }

    @Test
    void holdsTheLauncherLibrariesCompletionAndManPagesAndNoTestCode() throws IOException {
        assertThat(home.resolve("bin/redlock")).isExecutable();
        assertThat(home.resolve("completion/redlock")).content().contains("complete -F")
                .contains("completion/redlock").doesNotContain("_completion\"");
        assertThat(home.resolve("man/man1/redlock.1")).content().contains(".TH \"REDLOCK\"")
                .contains("ENVIRONMENT").contains(PasswordFile.ENV).contains(NodeOptions.ENV_NODES)
                .contains("SEE ALSO").contains("redlock\\-run(1)");
        assertThat(home.resolve("man/man1/redlock-run.1")).content().contains("crontab").contains("ENVIRONMENT")
                .contains("redlock(1)");
        assertThat(home.resolve("lib/redlock.jsa")).as("made where it is used, never shipped").doesNotExist();
        List<Path> jars;
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            jars = lib.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        assertThat(jars).extracting(p -> p.getFileName().toString())
                .contains("redlock-cli-" + System.getProperty("redlock.version") + ".jar")
                .noneMatch(name -> TEST_LIBRARIES.matcher(name).find());
        String cliJar = "redlock-cli-" + System.getProperty("redlock.version") + ".jar";
        List<String> classPath;
        try (JarFile cli = new JarFile(home.resolve("lib").resolve(cliJar).toFile())) {
            classPath = List.of(cli.getManifest().getMainAttributes().getValue("Class-Path").split(" "));
        }
        assertThat(jars).as("lib/ holds what the class path names, nothing left over")
                .extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrderElementsOf(Stream.concat(Stream.of(cliJar), classPath.stream()).toList());
        List<String> testClasses = new ArrayList<>();
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                    String name = entries.nextElement().getName();
                    if (name.matches(".*(Test|IT)\\.class") || name.startsWith("org/junit/")
                            || name.startsWith("io/redlock/testkit/junit/")) { // redlock-testkit-junit's

                        testClasses.add(jar.getFileName() + "!" + name);
                    }
                }
            }
        }
        assertThat(testClasses).isEmpty();
    }

    @Test
    void everyManPageHasItsEnvironmentAndSeeAlsoAndHeadingsSaidOnceAndEachOptionInOneParagraph() throws IOException {
        List<Path> pages;
        try (Stream<Path> man = Files.list(home.resolve("man/man1"))) {
            pages = man.sorted().toList();
        }
        List<String> names = pages.stream().map(p -> p.getFileName().toString().replaceAll("\\.1$", "")).toList();
        for (Path page : pages) {
            String roff = Files.readString(page).replace("\\-", "-").replace("\\(cq", "'");
            String name = page.getFileName().toString().replaceAll("\\.1$", "");
            assertThat(roff).as(name).contains(".SH \"ENVIRONMENT\"").contains(".SH \"SEE ALSO\"");
            assertThat(section(roff, "ENVIRONMENT")).as(name)
                    .contains("REDLOCK_NODES", "REDLOCK_NODE_TIMEOUT", "REDLOCK_PASSWORD_FILE", "REDLOCK_CDS",
                            "REDLOCK_JAVA_OPTS");
            assertThat(section(roff, "EXAMPLES")).as(name).doesNotContainPattern("(?i)\\nExamples?:");
            assertThat(roff).as(name).doesNotContain("Exit codes:").doesNotContain("EXIT CODES:");
            String seeAlso = section(roff, "SEE ALSO");
            names.stream().filter(other -> !other.equals(name) && !other.equals("redlock-help"))
                    .forEach(other -> assertThat(seeAlso).as(name).contains(other + "(1)"));
            Matcher option = ROFF_INDENTED.matcher(section(roff, "OPTIONS"));
            while (option.find()) {
                assertThat(option.group(1)).as("%s: an option's text is one paragraph", name).doesNotContain(".sp");
            }
        }
    }

    /** A block the man page indents (an option's text), between {@code .RS 4} and {@code .RE}. */
    private static final Pattern ROFF_INDENTED = Pattern.compile("(?s)\n\\.RS 4\n(.*?)\n\\.RE");

    /** The section {@code heading} of a man page, up to the next one; empty if it has none. */
    private static String section(String roff, String heading) {
        int start = roff.indexOf(".SH \"" + heading + "\"");
        if (start < 0) {
            return "";
        }
        int end = roff.indexOf("\n.SH ", start + 1);
        return roff.substring(start, end < 0 ? roff.length() : end);
    }

    @Test
    void binRedlockPrintsTheVersionAndTheCommitAndAcquires(RedisNodes nodes) throws Exception {
        Path redlock = home.resolve("bin/redlock");
        Cli version = Cli.launchCommand(List.of(redlock.toString()), Map.of(), "--version");
        assertThat(version.waitFor()).as(version.err()).isZero();
        assertThat(version.out()).startsWith("redlock " + System.getProperty("redlock.version") + " (commit ")
                .doesNotContain("development build");
        assertThat(version.err()).isEmpty();

        Cli acquire = Cli.launchCommand(List.of(redlock.toString()), Map.of(), Cli.withNodeTimeout("acquire",
                "dist-check", "--ttl", "30s", "--nodes", String.join(",", nodes.uris())));
        assertThat(acquire.waitFor()).as(acquire.err()).isZero();
        Matcher value = Pattern.compile("\"value\":\"([^\"]+)\"").matcher(acquire.out());
        assertThat(value.find()).as(acquire.out()).isTrue();
        String held = value.group(1);
        // a majority granted it before the command answered; the last node's write may still be on its way
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> // well under the 30 s TTL
                assertThat(nodes.servers()).allMatch(node -> held.equals(node.get("dist-check"))));
        assertThat(acquire.err()).isEmpty();
        assertThat(home.resolve("lib/redlock.jsa")).as("the first acquire made the class-data archive").isRegularFile();
    }

    @Test
    void theCompletionScriptCompletesSubcommandsAndTheirOptionsInBash() throws Exception {
        // what bash does on TAB after "redlock acquire --n" and after "redlock ac"
        String script = "source \"$0\" && complete -p redlock"
                + " && COMP_WORDS=(redlock acquire --n) COMP_CWORD=2 && _complete_redlock redlock --n acquire"
                + " && echo \"options: ${COMPREPLY[*]}\""
                + " && COMP_WORDS=(redlock ac) COMP_CWORD=1 && _complete_redlock redlock ac redlock"
                + " && echo \"commands: ${COMPREPLY[*]}\"";
        Cli bash = Cli.launchCommand(List.of("bash", "-c", script), Map.of(),
                home.resolve("completion/redlock").toString());
        assertThat(bash.waitFor()).as(bash.err()).isZero();
        assertThat(bash.out()).contains("-F _complete_redlock redlock").contains("options: --nodes --node-timeout")
                .contains("commands: acquire");
    }
}
