package io.redlock.internal.protocol;

/**
 * Redis Cluster's hash-tag rule, written once: a key's slot is the CRC16 of its tag (the text between its first
 * {@code {} and the first {@code }} after it, if not empty), else of the whole key. With a cluster member, every key
 * of one lock must hash to the lock key's slot so each script runs in one slot; the lock key itself stays the
 * resource (what other Redlock clients use), and the other keys are built on {@link #base}.
 */
final class HashTag {

    private HashTag() {
    }

    /**
     * What the other keys of {@code lock} are built on, so that {@code base + suffix} hashes to {@code lock}'s slot:
     * the key itself when it has a tag (the tag stays the first one), else the key in braces (the braces are the
     * tag). Null when neither works: a key without a tag but with a {@code }} in it.
     */
    static String base(String lock) {
        if (tagOf(lock) != null) {
            return lock;
        }
        return lock.indexOf('}') < 0 ? "{" + lock + "}" : null;
    }

    /** The key's hash tag, or null if it has none (its whole text is hashed). */
    static String tagOf(String key) {
        int open = key.indexOf('{');
        if (open < 0) {
            return null;
        }
        int close = key.indexOf('}', open + 1);
        return close > open + 1 ? key.substring(open + 1, close) : null;
    }
}
