package io.redlock.internal.parts;

import java.security.SecureRandom;
import java.util.Base64;

/** Lease values (SPEC S2): 20 bytes from {@link SecureRandom}, base64url without padding (27 characters). */
public final class LockValues {

    static final int RANDOM_BYTES = 20;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final SecureRandom random = new SecureRandom();

    public String next() {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }
}
