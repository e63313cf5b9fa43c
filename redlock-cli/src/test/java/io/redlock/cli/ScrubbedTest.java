package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Secrets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScrubbedTest {

    private final Secrets secrets = Secrets.of(List.of("--nodes", "redis://:p4ss/w0rd@h:1,redis://h2:2"));

    @Test
    void aSecretWrittenInPiecesIsStillHidden() {
        StringWriter target = new StringWriter();
        PrintWriter out = Scrubbed.writer(target, secrets);
        out.print("auth p4s");
        out.print("s/w0");
        out.println("rd failed");
        out.print("then w0rd without a newline");
        out.flush();
        assertThat(target.toString()).isEqualTo("auth *** failed" + System.lineSeparator()
                + "then *** without a newline");
    }

    @Test
    void aStreamHidesSecretsInEveryByteItIsGiven() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = Scrubbed.stream(new PrintStream(bytes, true, StandardCharsets.UTF_8), secrets);
        err.println("WARN redis://:p4ss/w0rd@h:1 refused ünïcode");
        err.print("p4ss%2Fw0rd");
        err.flush();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("WARN redis://***@h:1 refused ünïcode"
                + System.lineSeparator() + "***");
    }
}
