package io.redlock.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScriptsTest {

    @Test
    void everyScriptIsAResourceThatOpensWithAHeaderNamingIt() {
        for (Script script : Scripts.ALL) {
            assertThat(script.text()).as(script.name()).startsWith("-- " + script.name() + ": ");
            assertThat(script.text()).as(script.name()).contains("KEYS[1]").contains("Returns");
        }
    }

    @Test
    void theShaIsTheSha1OfTheTextTheServerIsSent() {
        Script script = Script.of("x", "return 1");
        assertThat(script.sha()).isEqualTo("e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
    }

    @Test
    void aMissingScriptFailsWhenItIsLoadedNotWhenItIsFirstRun() {
        assertThatThrownBy(() -> Script.load("no-such-script"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lua/no-such-script.lua");
    }
}
