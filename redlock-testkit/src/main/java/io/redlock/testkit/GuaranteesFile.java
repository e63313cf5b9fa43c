package io.redlock.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * docs/GUARANTEES.md is written by more than one measurement: the fault matrix writes the file, and a randomized fault
 * run and the rows with fenced storage on PostgreSQL (tests of other modules) write their own sections of it. Each keeps the other's: a section is a level-2 heading
 * and what follows it up to the next level-2 heading or the end.
 */
public final class GuaranteesFile {

    /** The heading of the randomized fault run's section. */
    public static final String RANDOMIZED_RUN = "## Randomized fault run";

    /** The heading of the fault rows with the fenced storage on PostgreSQL (module redlock-fencing-sql). */
    public static final String FENCED_SQL = "## Fenced storage on PostgreSQL";

    private GuaranteesFile() {
    }

    /** The section of {@code file} under {@code heading}, heading included, or "" if the file or section is absent. */
    public static String section(Path file, String heading) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int start = start(text, heading);
        return start < 0 ? "" : text.substring(start, end(text, start));
    }

    /**
     * Writes {@code body} (starting with {@code heading}) as that section of {@code file}, in place of the old one, or
     * at the end if it had none.
     */
    public static void replaceSection(Path file, String heading, String body) throws IOException {
        if (!body.startsWith(heading + "\n")) {
            throw new IllegalArgumentException("the section must start with its heading " + heading);
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int start = start(text, heading);
        String section = body.endsWith("\n") ? body : body + "\n";
        String updated = start < 0 ? text + (text.endsWith("\n\n") ? "" : "\n") + section
                : text.substring(0, start) + section + text.substring(end(text, start));
        Files.writeString(file, updated, StandardCharsets.UTF_8);
    }

    private static int start(String text, String heading) {
        if (text.startsWith(heading + "\n")) {
            return 0;
        }
        int at = text.indexOf("\n" + heading + "\n");
        return at < 0 ? -1 : at + 1;
    }

    private static int end(String text, int start) {
        int next = text.indexOf("\n## ", start + 1);
        return next < 0 ? text.length() : next + 1;
    }
}
