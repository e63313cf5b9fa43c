package io.redlock.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The examples of the documentation, as a user would paste them: the indented lines under "Start here:",
 * "Example(s):" and "In a crontab..." in the help, and the bash and crontab blocks of a section of docs/CLI.md. Host
 * names and install paths are placeholders a user replaces; {@link #localize} replaces them the same way for a test.
 */
final class Examples {

    /** The commands whose examples run for minutes or until Ctrl-C: ServersIT, DemoIT and BenchCommand's tests. */
    private static final Pattern LONG_RUNNING = Pattern.compile("^(\\./)?redlock (servers|demo|bench)\\b");

    private static final Pattern CRON_SCHEDULE = Pattern.compile("^([*/0-9,-]+\\s+){5}(?<command>.+)$");

    /** What a crontab holds: environment lines, then scheduled commands. */
    record Crontab(List<String> environment, List<String> commands) {
    }

    private Examples() {
    }

    /**
     * The shell lines of the help's example sections, in order. Every line of such a section must be indented:
     * a line picocli wrapped (longer than the help's width) starts at column 0 and would break when pasted.
     */
    static List<String> shellLinesOfHelp(String help) {
        List<String> lines = new ArrayList<>(section(help, "Start here"));
        lines.addAll(section(help, "Example"));
        return runnable(lines);
    }

    /** The crontab lines of the help's "In a crontab" section. */
    static Crontab crontabOfHelp(String help) {
        return crontab(section(help, "In a crontab"));
    }

    private static List<String> section(String help, String headerStart) {
        List<String> lines = new ArrayList<>();
        boolean inside = false;
        for (String line : help.lines().toList()) {
            if (!inside) {
                inside = line.startsWith(headerStart);
                continue;
            }
            if (line.isBlank()) {
                break;
            }
            if (!line.startsWith("  ")) {
                throw new AssertionError("an example line wraps (longer than the help's width): '" + line + "'");
            }
            lines.add(line.substring(2));
        }
        return lines;
    }

    /** The lines of the {@code lang} fenced blocks of a Markdown section whose heading starts with {@code heading}. */
    static List<String> markdownBlocks(String markdown, String heading, String lang) {
        List<String> lines = new ArrayList<>();
        boolean inSection = false;
        boolean inBlock = false;
        boolean wanted = false;
        for (String line : markdown.lines().toList()) {
            if (!inBlock && line.startsWith("## ")) {
                inSection = line.startsWith(heading);
            } else if (inSection && !inBlock && line.startsWith("```")) {
                inBlock = true;
                wanted = line.equals("```" + lang);
            } else if (inSection && inBlock && line.equals("```")) {
                inBlock = false;
            } else if (inSection && inBlock && wanted) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** The lines to run: all but those of the long-running commands. */
    static List<String> runnable(List<String> shellLines) {
        return shellLines.stream().filter(line -> !LONG_RUNNING.matcher(line.trim()).find()).toList();
    }

    static Crontab crontab(List<String> lines) {
        List<String> environment = new ArrayList<>();
        List<String> commands = new ArrayList<>();
        for (String line : lines) {
            Matcher schedule = CRON_SCHEDULE.matcher(line.trim());
            if (schedule.matches()) {
                commands.add(schedule.group("command"));
            } else if (line.matches("[A-Z_][A-Z0-9_]*=\\S+")) {
                environment.add(line);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                throw new AssertionError("not a crontab line: '" + line + "'");
            }
        }
        return new Crontab(environment, commands);
    }

    /**
     * Replaces what a user replaces: {@code redis://hN[:6379]} by the N-th of {@code nodes}, the nodes of
     * {@code redlock servers --port-base 7000} ({@code redis://127.0.0.1:700N}) by the (N+1)-th, {@code /opt/redlock}
     * by the installed distribution and {@code /opt/jobs} by the directory of the jobs.
     */
    static String localize(String line, List<String> nodes, String redlockHome, String jobs) {
        String result = line.replace("/opt/redlock", redlockHome).replace("/opt/jobs", jobs);
        Matcher host = Pattern.compile("redis://h(\\d)(:6379)?").matcher(result);
        result = host.replaceAll(m -> Matcher.quoteReplacement(nodes.get(Integer.parseInt(m.group(1)) - 1)));
        Matcher local = Pattern.compile("redis://127\\.0\\.0\\.1:700(\\d)").matcher(result);
        return local.replaceAll(m -> Matcher.quoteReplacement(nodes.get(Integer.parseInt(m.group(1)))));
    }
}
