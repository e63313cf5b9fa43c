package io.redlock.cli;

import java.util.regex.Pattern;

/** Keeps passwords in Redis URIs out of everything the command prints. */
final class Secrets {

    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^@/\\s]*@");

    private Secrets() {
    }

    /** {@code text} with the user-info of every URI in it replaced by {@code ***}. */
    static String mask(String text) {
        return text == null ? "" : USER_INFO.matcher(text).replaceAll("***@");
    }
}
