package io.redlock.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Map;

/**
 * One JSON line per result, for scripts: maps (in their order), records (by component), iterables, strings, numbers,
 * booleans, enums (by name) and null. Written by hand, not with a JSON library: loading one costs a short command
 * more startup than the whole line is worth.
 */
final class Json {

    private Json() {
    }

    static String of(Object value) {
        StringBuilder out = new StringBuilder(128);
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof CharSequence || value instanceof Enum<?> || value instanceof Character) {
            string(out, value instanceof Enum<?> e ? e.name() : value.toString());
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(separator);
                string(out, String.valueOf(entry.getKey()));
                out.append(':');
                write(out, entry.getValue());
                separator = ",";
            }
            out.append('}');
        } else if (value instanceof Iterable<?> items) {
            out.append('[');
            String separator = "";
            for (Object item : items) {
                out.append(separator);
                write(out, item);
                separator = ",";
            }
            out.append(']');
        } else if (value instanceof Record record) {
            out.append('{');
            String separator = "";
            for (RecordComponent component : record.getClass().getRecordComponents()) {
                out.append(separator);
                string(out, component.getName());
                out.append(':');
                write(out, component(record, component));
                separator = ",";
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static Object component(Record record, RecordComponent component) {
        try {
            component.getAccessor().setAccessible(true);
            return component.getAccessor().invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + component.getName() + " of " + record.getClass(), e);
        }
    }

    private static void string(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
