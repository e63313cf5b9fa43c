package io.redlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** A table of strings, rendered as aligned plain text for the console or as Markdown for the results file. */
record TextTable(List<String> header, List<List<String>> rows) {

    TextTable {
        header = List.copyOf(header);
        rows = rows.stream().map(List::copyOf).toList();
    }

    /** Columns padded to their widest cell; the first left-aligned, the others right-aligned (numbers). */
    String plain() {
        int[] widths = new int[header.size()];
        for (List<String> row : all()) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : all()) {
            for (int i = 0; i < row.size(); i++) {
                String format = i == 0 ? "%-" + widths[i] + "s" : "  %" + widths[i] + "s";
                out.append(String.format(format, row.get(i)));
            }
            out.append('\n');
        }
        return out.toString();
    }

    String markdown() {
        StringBuilder out = new StringBuilder(line(header));
        out.append(IntStream.range(0, header.size()).mapToObj(i -> i == 0 ? "---" : "---:")
                .collect(Collectors.joining("|", "|", "|\n")));
        rows.forEach(row -> out.append(line(row)));
        return out.toString();
    }

    private List<List<String>> all() {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        return all;
    }

    private static String line(List<String> cells) {
        return cells.stream().collect(Collectors.joining(" | ", "| ", " |\n"));
    }
}
