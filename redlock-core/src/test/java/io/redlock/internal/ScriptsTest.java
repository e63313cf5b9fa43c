package io.redlock.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptsTest {

    @Test
    void everyScriptIsAResourceThatOpensWithAHeaderNamingIt() {
        for (Script script : Scripts.ALL) {
            String resource = Script.load(script.name()).text();
            assertThat(resource).as(script.name()).startsWith("-- " + script.name() + ": ");
            assertThat(resource).as(script.name()).contains("KEYS[1]").contains("Returns");
            assertThat(script.text()).as(script.name()).endsWith(resource);
        }
    }

    @Test
    void theScriptsThatWriteTheCounterShareItsRules() {
        String rules = Script.load("fence-counter").text();
        assertThat(Scripts.ACQUIRE_FENCED.text()).startsWith(rules);
        assertThat(Scripts.COMMIT_FENCE.text()).startsWith(rules);
        assertThat(Scripts.ACQUIRE_ALL.text()).startsWith(rules);
        assertThat(Scripts.COMMIT_ALL.text()).startsWith(rules);
        assertThat(Scripts.ACQUIRE_READ.text()).startsWith(rules);
        assertThat(Scripts.ACQUIRE_PERMIT.text()).startsWith(rules);
        assertThat(Scripts.COMMIT_SHARED.text()).startsWith(rules);
        assertThat(Scripts.EXTEND.text()).doesNotContain("fence_floor");
    }

    @Test
    void theMarksAndSlotsTheScriptsWriteAreTheOnesJavaReads() {
        String rules = Script.load("shared").text();
        assertThat(rules).contains("local READ_MARK = '" + io.redlock.RedlockConfig.READ_MARK + "'")
                .contains("local PERMITS_MARK = '" + io.redlock.RedlockConfig.PERMITS_MARK + "'")
                .contains("string.match(value, '%" + PermitKeys.SLOT_SEPARATOR + "(%d+)$')");
    }

    @Test
    void theScriptsOfSharedLocksAndThoseThatRefuseThemShareTheirRules() {
        String rules = Script.load("shared").text();
        for (Script script : List.of(Scripts.ACQUIRE_READ, Scripts.ACQUIRE_PERMIT, Scripts.COMMIT_SHARED,
                Scripts.EXTEND_SHARED, Scripts.RELEASE_SHARED, Scripts.ACQUIRE_FENCED, Scripts.ACQUIRE_ALL)) {
            assertThat(script.text()).as(script.name()).contains(rules);
        }
        for (String name : List.of("acquire-read", "acquire-permit", "commit-shared", "extend-shared", "release-shared",
                "acquire-fenced", "acquire-all")) {
            assertThat(Script.load(name).text()).as(name).doesNotContain("'redlock:").doesNotContain("'time'");
        }
    }

    @Test
    void theScriptsThatFreeAResourceShareTheReleaseMessage() {
        String rules = Script.load("announce").text();
        assertThat(Scripts.RELEASE.text()).startsWith(rules);
        assertThat(Scripts.RELEASE_SHARED.text()).contains(rules);
        assertThat(Script.load("release").text()).doesNotContain("'publish'");
        assertThat(Script.load("release-shared").text()).doesNotContain("'publish'");
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
