package io.redlock;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps the credentials of Redis URIs out of messages: masks the user-info of every URI in a text, and replaces
 * passwords known from the URIs a program was given wherever they appear, raw or percent-encoded. The one place the
 * library, the command-line tool and the starter redact secrets.
 *
 * <p>Immutable and thread-safe.
 */
public final class Secrets {

    /** What a masked user-info or password is replaced with. */
    public static final String MASK = "***";
    /** Shorter secrets are not replaced in free text: they would mangle ordinary words and numbers. */
    static final int MIN_SECRET_LENGTH = 3;

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");
    /** Where a URI inside free text ends, for {@link #mask(String)}. */
    private static final String URI_END = " \t\r\n'\",;()[]<>";
    /** Where a URI parser may cut a password: any character outside the unreserved set of RFC 3986. */
    private static final Pattern RESERVED = Pattern.compile("[^A-Za-z0-9._~-]+");

    /** The characters of a token: a secret made only of them is replaced only where no such character touches it. */
    private static final String TOKEN_CHARS = "A-Za-z0-9_-";
    private static final Pattern TOKEN = Pattern.compile("[" + TOKEN_CHARS + "]+");

    private static final Secrets NONE = new Secrets(List.of());

    /** The secrets, longest first. */
    private final List<String> values;
    /** One pattern per secret, in the same order. */
    private final List<Pattern> secrets;

    private Secrets(List<String> secrets) {
        this.values = secrets;
        this.secrets = secrets.stream().map(Secrets::pattern).toList();
    }

    /**
     * A secret that could be part of a longer token (a piece of a password such as {@code pass} in {@code my/pass})
     * is replaced only as a whole token, so a lease value or a word that happens to contain it is left intact; any
     * other secret is replaced wherever it appears.
     */
    private static Pattern pattern(String secret) {
        String quoted = Pattern.quote(secret);
        return TOKEN.matcher(secret).matches()
                ? Pattern.compile("(?<![" + TOKEN_CHARS + "])" + quoted + "(?![" + TOKEN_CHARS + "])")
                : Pattern.compile(quoted);
    }

    /**
     * The secrets in {@code texts}: the user-info and password of every URI in them, as written and
     * percent-decoded and -encoded, and the pieces of the password between reserved characters (at least
     * {@value #MIN_SECRET_LENGTH} characters long), which a parser may quote on their own; see {@link #hide(String)}.
     * A text may hold several URIs (comma-separated, say) and need not be well-formed: a URI's user-info runs from
     * {@code ://} to the last {@code @} before the next URI; before the first URI, each comma-separated node string's
     * runs from its start to its last {@code @} ({@code user:pw@host}, {@code redis:/:pw@host}).
     */
    public static Secrets of(Collection<String> texts) {
        Set<String> found = new LinkedHashSet<>();
        for (String text : texts) {
            if (text != null) {
                collect(text, found);
            }
        }
        return create(found);
    }

    /**
     * These secrets and {@code passwords}, each a password given on its own rather than inside a URI (a
     * {@code password} setting, say): found in the same forms as a URI's password (as written, percent-decoded and
     * -encoded, and its pieces between reserved characters). Null and empty entries are ignored; as everywhere,
     * secrets shorter than {@value #MIN_SECRET_LENGTH} characters are not replaced in free text.
     */
    public Secrets withPasswords(Collection<String> passwords) {
        Set<String> found = new LinkedHashSet<>(values);
        for (String password : passwords) {
            if (password != null && !password.isEmpty()) {
                collectPassword(password, password, found);
            }
        }
        return create(found);
    }

    private static Secrets create(Set<String> found) {
        List<String> sorted = new ArrayList<>(found);
        sorted.removeIf(s -> s.length() < MIN_SECRET_LENGTH);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        return sorted.isEmpty() ? NONE : new Secrets(List.copyOf(sorted));
    }

    /** {@code text} with every known secret and the user-info of every URI replaced by {@link #MASK}. */
    public String scrub(String text) {
        return mask(hide(text));
    }

    /**
     * {@code text} with every known secret replaced by {@link #MASK}, and nothing else changed: for output that may
     * show URIs without secrets, such as a help text's {@code redis://:password@host} example. A secret made only of
     * letters, digits, {@code _} and {@code -} is replaced only where it stands as a whole token, so a lease value
     * that happens to contain it is printed intact.
     */
    public String hide(String text) {
        if (text == null) {
            return "";
        }
        String out = text;
        for (Pattern secret : secrets) {
            out = secret.matcher(out).replaceAll(MASK);
        }
        return out;
    }

    /**
     * {@code text} with the user-info of every node string in it replaced by {@link #MASK}: in each run of text between
     * blanks, quotes and list separators, everything before the last {@code @} of each URI ({@code ://user:pw@host}
     * keeps its scheme), and, before the first URI, everything before the last {@code @} — a node string written
     * without a scheme or with a broken one ({@code user:pw@host}, {@code redis:/:pw@host}), or a parser's quote of a
     * piece of one ({@code "x9@host"}), however short.
     */
    public static String mask(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        for (int[] userInfo : userInfos(text)) {
            out.append(text, copied, userInfo[0]).append(MASK);
            copied = userInfo[1];
        }
        return out.append(text, copied, text.length()).toString();
    }

    /** Where the user-info of each node string in {@code text} lies, in order: {start, index of its '@'}. */
    private static List<int[]> userInfos(String text) {
        List<int[]> found = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            while (i < text.length() && URI_END.indexOf(text.charAt(i)) >= 0) {
                i++;
            }
            int start = i;
            while (i < text.length() && URI_END.indexOf(text.charAt(i)) < 0) {
                i++;
            }
            Matcher scheme = SCHEME.matcher(text).region(start, i);
            int from = start;
            boolean more;
            do {
                more = scheme.find();
                int to = more ? scheme.start() : i;
                int at = text.lastIndexOf('@', to - 1);
                if (at > from) {
                    found.add(new int[] {from, at});
                }
                from = more ? scheme.end() : i;
            } while (more);
        }
        return found;
    }

    private static void collect(String text, Set<String> found) {
        Matcher scheme = SCHEME.matcher(text);
        List<int[]> starts = new ArrayList<>();
        while (scheme.find()) {
            starts.add(new int[] {scheme.start(), scheme.end()});
        }
        // before the first URI: node strings without a scheme, or with a broken one, each up to its last '@'
        String schemeless = text.substring(0, starts.isEmpty() ? text.length() : starts.get(0)[0]);
        for (String node : schemeless.split(",")) {
            int at = node.lastIndexOf('@');
            if (at > 0) {
                collectUserInfo(node.substring(0, at), found);
            }
        }
        for (int i = 0; i < starts.size(); i++) {
            int from = starts.get(i)[1];
            int to = i + 1 < starts.size() ? starts.get(i + 1)[0] : text.length();
            int at = text.lastIndexOf('@', to - 1);
            if (at >= from) {
                collectUserInfo(text.substring(from, at), found);
            }
        }
    }

    private static void collectUserInfo(String userInfo, Set<String> found) {
        int colon = userInfo.indexOf(':');
        collectPassword(userInfo, colon >= 0 ? userInfo.substring(colon + 1) : userInfo, found);
    }

    /** A URI's user-info and password (or a password twice), in every form and with its pieces. */
    private static void collectPassword(String userInfo, String password, Set<String> found) {
        for (String secret : List.of(userInfo, password)) {
            addForms(secret, found);
        }
        // a parser that stops at a reserved character may quote the rest of the password on its own
        for (String form : List.of(password, decoded(password))) {
            for (String fragment : RESERVED.split(form)) {
                addForms(fragment, found);
            }
        }
    }

    /** The secret as written, percent-decoded, and percent-encoded (of either): any form a layer may print. */
    private static void addForms(String secret, Set<String> found) {
        if (secret.isEmpty()) {
            return;
        }
        for (String form : new LinkedHashSet<>(List.of(secret, decoded(secret)))) {
            found.add(form);
            String encoded = URLEncoder.encode(form, StandardCharsets.UTF_8);
            found.add(encoded);
            found.add(encoded.replace("+", "%20"));
        }
    }

    /** {@code text} percent-decoded, or as it is if it is no valid percent-encoding (a raw '%'). */
    private static String decoded(String text) {
        try {
            return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notEncoded) {
            return text;
        }
    }
}
