package io.redlock.spring;

import io.redlock.Secrets;

/** Keeps credentials out of logs and failure messages. */
final class Masking {

    private Masking() {
    }

    /** {@code text} with the user-info of every URI in it ({@code ://user:pass@}) replaced by {@code ://***@}. */
    static String maskUri(String text) {
        return text == null ? "null" : Secrets.mask(text);
    }

    /** {@link #maskUri(String)}, then every given secret replaced by {@code ***}. */
    static String scrub(String text, String... secrets) {
        String out = maskUri(text);
        for (String secret : secrets) {
            if (secret != null && !secret.isEmpty()) {
                out = out.replace(secret, Secrets.MASK);
            }
        }
        return out;
    }
}
