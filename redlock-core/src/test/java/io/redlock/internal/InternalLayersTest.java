package io.redlock.internal;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The packages of the implementation and their layers, written once here: the layering rule is checked on the
 * compiled classes, and docs/ARCHITECTURE.md's picture of the layers is drawn from the same list and the classes each
 * package holds (a stale picture fails; {@code -Dredlock.docs.write=true} draws it afresh).
 */
class InternalLayersTest {

    /** One layer: its name in the rule and the picture, its package, and its job. */
    record Layer(String name, String pkg, String job) {
    }

    /** Top down: each layer may use only the layers below it. */
    static final List<Layer> LAYERS = List.of(
            new Layer("engine", "io.redlock.internal",
                    "the owner: builds the shared parts once, hands each call to its part, closes in order"),
            new Layer("locks", "io.redlock.internal.locks",
                    "the lock kinds (Lock, read-write, semaphore) and withLock; blocking calls wait on async ones"),
            new Layer("acquire", "io.redlock.internal.acquire",
                    "acquire calls of every kind: rounds with retries, the fair queue, wake-on-release, one round"),
            new Layer("lease", "io.redlock.internal.lease",
                    "leases: extension, the watchdog, losses, the leases kept alive, extend and release by value"),
            new Layer("report", "io.redlock.internal.report",
                    "inspect, status and ping: read-only, every node awaited for a bounded time"),
            new Layer("parts", "io.redlock.internal.parts",
                    "what every part shares, built once; events, what tests inject, the closed state; checks, validity"),
            new Layer("release", "io.redlock.internal.release",
                    "compare-and-delete repeated until it lands, leaving waiter queues, release notices, pending work"),
            new Layer("protocol", "io.redlock.internal.protocol",
                    "the Lua scripts, each script's arguments as one request, the keys of each lock kind, the replies"),
            new Layer("node", "io.redlock.internal.node",
                    "the nodes: connections, batching, the wire format, one fan-out round and its tally, failures"),
            new Layer("time", "io.redlock.internal.time",
                    "deadlines on the injected ticker, the scheduler thread, the timer wheel"));

    private static final Path DOC = Path.of("../docs/ARCHITECTURE.md");
    private static final String BEGIN = "<!-- layers: drawn by InternalLayersTest -->";
    private static final String END = "<!-- /layers -->";

    private static final JavaClasses INTERNAL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.redlock.internal");

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        LayeredArchitecture rule = com.tngtech.archunit.library.Architectures.layeredArchitecture()
                .consideringOnlyDependenciesInLayers();
        for (Layer layer : LAYERS) {
            rule = rule.layer(layer.name()).definedBy(layer.pkg());
        }
        for (int i = 0; i < LAYERS.size(); i++) {
            String[] above = LAYERS.subList(0, i).stream().map(Layer::name).toArray(String[]::new);
            rule = above.length == 0 ? rule.whereLayer(LAYERS.get(i).name()).mayNotBeAccessedByAnyLayer()
                    : rule.whereLayer(LAYERS.get(i).name()).mayOnlyBeAccessedByLayers(above);
        }
        rule.check(INTERNAL);
    }

    @Test
    void noPackagesDependOnEachOtherInACircle() {
        slices().matching("io.redlock.internal.(**)").should().beFreeOfCycles().check(INTERNAL);
    }

    @Test
    void everyPackageOfTheImplementationIsALayer() {
        assertThat(INTERNAL.stream().map(JavaClass::getPackageName).distinct())
                .containsExactlyInAnyOrderElementsOf(LAYERS.stream().map(Layer::pkg).toList());
    }

    @Test
    void theArchitecturePageDrawsTheseLayers() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("%s holds %s ... %s", DOC, BEGIN, END).isNotNegative().isLessThan(end);
        String drawn = doc.substring(0, begin + BEGIN.length()) + "\n" + picture() + doc.substring(end);
        if (Boolean.getBoolean("redlock.docs.write")) {
            Files.writeString(DOC, drawn, StandardCharsets.UTF_8);
            doc = drawn;
        }
        assertThat(doc).as("%s's layers (-Dredlock.docs.write=true draws them afresh)", DOC).isEqualTo(drawn);
    }

    /** The layers top down, each with its job and its classes (top-level ones, by name). */
    private static String picture() {
        StringBuilder md = new StringBuilder("```\nio.redlock   the API: Redlock, Lease, the configuration, the "
                + "exceptions\n");
        for (Layer layer : LAYERS) {
            md.append("   │\n   ▼\n").append(layer.pkg()).append("   ").append(layer.job()).append('\n');
        }
        md.append("```\n\n| package | classes |\n|---|---|\n");
        for (Layer layer : LAYERS) {
            md.append("| `").append(layer.pkg()).append("` | ").append(INTERNAL.stream()
                    .filter(c -> c.getPackageName().equals(layer.pkg()) && c.isTopLevelClass())
                    .map(JavaClass::getSimpleName).filter(name -> !name.equals("package-info")).sorted()
                    .map(name -> "`" + name + "`").collect(Collectors.joining(", "))).append(" |\n");
        }
        return md.toString();
    }
}
