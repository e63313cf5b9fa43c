package io.redlock.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.redlock.internal.node.Script;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ScriptsTest {

    /** Each script's request: the record of {@link Scripts} whose components are its ARGV. */
    private static final Map<Script, Class<? extends Record>> REQUESTS = Map.ofEntries(
            Map.entry(Scripts.RELEASE, Scripts.Release.class),
            Map.entry(Scripts.EXTEND, Scripts.Extend.class),
            Map.entry(Scripts.ACQUIRE_FENCED, Scripts.AcquireFenced.class),
            Map.entry(Scripts.COMMIT_FENCE, Scripts.Commit.class),
            Map.entry(Scripts.LEAVE_QUEUE, Scripts.LeaveQueue.class),
            Map.entry(Scripts.ACQUIRE_ALL, Scripts.Acquire.class),
            Map.entry(Scripts.COMMIT_ALL, Scripts.Commit.class),
            Map.entry(Scripts.ACQUIRE_READ, Scripts.Acquire.class),
            Map.entry(Scripts.ACQUIRE_PERMIT, Scripts.AcquirePermit.class),
            Map.entry(Scripts.COMMIT_SHARED, Scripts.CommitShared.class),
            Map.entry(Scripts.EXTEND_SHARED, Scripts.Extend.class),
            Map.entry(Scripts.RELEASE_SHARED, Scripts.Release.class));

    /** An ARGV a header names (as Scripts says): opening a header line or after a gap; "..": a list, the rest. */
    private static final Pattern NAMED_ARGV = Pattern.compile("(?:^-- |  )ARGV\\[(\\d+)(\\.\\.)?] ([A-Za-z]+)",
            Pattern.MULTILINE);

    @Test
    void everyScriptIsAResourceThatOpensWithAHeaderNamingIt() {
        for (Script script : Scripts.ALL) {
            String resource = Scripts.load(script.name()).text();
            assertThat(resource).as(script.name()).startsWith("-- " + script.name() + ": ");
            assertThat(resource).as(script.name()).contains("KEYS[1]").contains("Returns");
            assertThat(script.text()).as(script.name()).endsWith(resource);
        }
    }

    @Test
    void eachScriptsRequestHasTheArgvItsHeaderNamesInThatOrder() {
        assertThat(REQUESTS.keySet()).containsExactlyInAnyOrderElementsOf(Scripts.ALL);
        assertThat(Arrays.stream(Scripts.class.getDeclaredClasses()).filter(Class::isRecord))
                .as("every request of Scripts is some script's").containsExactlyInAnyOrderElementsOf(
                        Set.copyOf(REQUESTS.values()));
        for (Script script : Scripts.ALL) {
            List<String> components = Arrays.stream(REQUESTS.get(script).getRecordComponents())
                    .map(c -> c.getName() + (c.getType() == List.class ? ".." : "")).toList();
            assertThat(components).as("%s: the components of %s", script.name(),
                    REQUESTS.get(script).getSimpleName()).isEqualTo(headerArgv(script));
        }
    }

    @Test
    void argvSendsEachComponentInItsPlace() throws ReflectiveOperationException {
        for (Class<? extends Record> type : Set.copyOf(REQUESTS.values())) {
            RecordComponent[] components = type.getRecordComponents();
            Object[] values = new Object[components.length];
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < components.length; i++) {
                Class<?> kind = components[i].getType();
                if (kind == String.class) {
                    values[i] = "s" + i;
                } else if (kind == long.class) {
                    values[i] = 100L + i;
                } else if (kind == int.class) {
                    values[i] = 100 + i;
                } else if (kind == boolean.class) {
                    values[i] = i % 2 == 0; // neighbouring flags differ, so a swap shows
                } else if (kind == List.class) {
                    values[i] = List.of("s" + i + "a", "s" + i + "b");
                } else {
                    fail("%s.%s: a component of type %s", type.getSimpleName(), components[i].getName(), kind);
                }
                if (values[i] instanceof List<?> rest) {
                    rest.forEach(element -> sent.add((String) element));
                } else {
                    sent.add(values[i] instanceof Boolean flag ? (flag ? "1" : "0") : values[i].toString());
                }
            }
            Constructor<? extends Record> canonical = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            Record request = canonical.newInstance(values);
            String[] argv = (String[]) type.getDeclaredMethod("argv").invoke(request);
            assertThat(argv).as(type.getSimpleName()).containsExactlyElementsOf(sent);
        }
    }

    /** The ARGV the script's header names, in order; a list that takes the rest ends in "..". */
    private static List<String> headerArgv(Script script) {
        String header = String.join("\n", Scripts.load(script.name()).text().lines()
                .takeWhile(line -> line.startsWith("--")).toList());
        List<String> names = new ArrayList<>();
        Matcher named = NAMED_ARGV.matcher(header);
        while (named.find()) {
            assertThat(Integer.parseInt(named.group(1))).as("%s numbers its ARGV from 1, in order", script.name())
                    .isEqualTo(names.size() + 1);
            names.add(named.group(3) + (named.group(2) == null ? "" : ".."));
        }
        return names;
    }

    @Test
    void theScriptsThatWriteTheCounterShareItsRules() {
        String grant = Scripts.load("clock").text() + Scripts.load("fence-grant").text();
        String counter = Scripts.load("fence-counter").text();
        for (Script script : List.of(Scripts.ACQUIRE_FENCED, Scripts.COMMIT_FENCE, Scripts.ACQUIRE_ALL, Scripts.COMMIT_ALL,
                Scripts.ACQUIRE_READ, Scripts.ACQUIRE_PERMIT, Scripts.COMMIT_SHARED)) {
            assertThat(script.text()).as(script.name()).startsWith(grant);
        }
        for (Script script : List.of(Scripts.COMMIT_FENCE, Scripts.ACQUIRE_ALL, Scripts.COMMIT_ALL,
                Scripts.COMMIT_SHARED)) {
            assertThat(script.text()).as(script.name()).contains(counter);
        }
        assertThat(Scripts.EXTEND.text()).doesNotContain("fence_");
    }

    @Test
    void everyScriptThatReadsTheNodesClockHasTheClockRuleInFrontOfIt() {
        String clock = Scripts.load("clock").text();
        for (Script script : Scripts.ALL) {
            String text = script.text();
            if (text.replace(clock, "").contains("node_clock()")) {
                assertThat(text).as(script.name()).startsWith(clock);
            } else {
                assertThat(text).as(script.name()).doesNotContain(clock);
            }
        }
    }

    @Test
    void theMarksAndSlotsTheScriptsWriteAreTheOnesJavaReads() {
        assertThat(Scripts.load("marks").text())
                .contains("local READ_MARK = '" + io.redlock.internal.protocol.Keys.READ_MARK + "'")
                .contains("local PERMITS_MARK = '" + io.redlock.internal.protocol.Keys.PERMITS_MARK + "'");
        assertThat(Scripts.load("shared").text())
                .contains("string.match(value, '%" + PermitKeys.SLOT_SEPARATOR + "(%d+)$')");
    }

    @Test
    void theScriptsOfSharedLocksAndThoseThatRefuseThemShareTheirRules() {
        String marks = Scripts.load("marks").text();
        String shared = Scripts.load("shared").text();
        for (Script script : List.of(Scripts.ACQUIRE_READ, Scripts.ACQUIRE_PERMIT, Scripts.COMMIT_SHARED,
                Scripts.EXTEND_SHARED, Scripts.RELEASE_SHARED, Scripts.ACQUIRE_FENCED, Scripts.ACQUIRE_ALL)) {
            assertThat(script.text()).as(script.name()).contains(marks);
        }
        for (Script script : List.of(Scripts.ACQUIRE_READ, Scripts.ACQUIRE_PERMIT, Scripts.COMMIT_SHARED,
                Scripts.EXTEND_SHARED, Scripts.RELEASE_SHARED)) {
            assertThat(script.text()).as(script.name()).contains(shared);
        }
        for (String name : List.of("acquire-read", "acquire-permit", "commit-shared", "extend-shared", "release-shared",
                "acquire-fenced", "acquire-all")) {
            assertThat(Scripts.load(name).text()).as(name).doesNotContain("'redlock:").doesNotContain("'time'");
        }
    }

    /** A rule's function or constant: defined by {@code local function name(} or {@code local NAME =}. */
    private static final Pattern RULE_NAME = Pattern.compile("\\b((?:shared|fence|queue)_\\w+|announce|[A-Z_]*MARK)\\b");

    @Test
    void everyRuleAScriptCallsIsDefinedByARuleInFrontOfIt() {
        for (Script script : Scripts.ALL) {
            StringBuilder defined = new StringBuilder();
            for (Script rule : script.rules()) {
                assertUsesOnlyDefined(script.name() + " (" + rule.name() + ")", code(rule.text()), defined.toString());
                defined.append(rule.text());
            }
            assertUsesOnlyDefined(script.name(), code(script.body()), defined.toString());
        }
    }

    private static void assertUsesOnlyDefined(String where, String code, String rulesInFront) {
        Matcher used = RULE_NAME.matcher(code);
        while (used.find()) {
            String name = used.group(1);
            boolean definedHere = code.contains("local function " + name + "(") || code.contains("local " + name + " =");
            boolean definedInFront = rulesInFront.contains("local function " + name + "(")
                    || rulesInFront.contains("local " + name + " =");
            assertThat(definedHere || definedInFront).as("%s uses %s, which no rule in front of it defines", where, name)
                    .isTrue();
        }
    }

    /** Lua without its comments. */
    private static String code(String lua) {
        return lua.lines().map(line -> line.replaceAll("--.*$", "")).reduce("", (a, b) -> a + b + "\n");
    }

    @Test
    void theShaIsTheSha1OfTheTextTheServerIsSent() {
        Script script = Script.of("x", "return 1");
        assertThat(script.sha()).isEqualTo("e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
    }

    @Test
    void theBatchCarriesEveryScript() {
        assertThat(Scripts.BATCH.scripts()).isEqualTo(Scripts.ALL);
    }

    @Test
    void aMissingScriptFailsWhenItIsLoadedNotWhenItIsFirstRun() {
        assertThatThrownBy(() -> Scripts.load("no-such-script"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lua/no-such-script.lua");
    }
}
