package io.redlock.testkit.junit;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** {@link WithRedisNodes} kills a test's servers and deletes their directories when the test fails. */
class FailedTestCleanupIT {

    @Test
    void serversOfFailedTestsAreKilledAndTheirDirectoriesDeleted() {
        FailingWithNodes.PROCESSES.clear();
        FailingWithNodes.DIRECTORIES.clear();

        Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(FailingWithNodes.class))
                .execute().testEvents();

        tests.assertStatistics(stats -> stats.started(3).succeeded(0).failed(3));
        assertThat(tests.failed().stream().map(e -> e.getRequiredPayload(TestExecutionResult.class).getThrowable()
                .orElseThrow().getMessage())).allMatch(message -> message.contains("deliberate"));
        // 2 + 2 nodes from the class annotation, 1 from the method annotation
        assertThat(FailingWithNodes.PROCESSES).hasSize(5);
        assertThat(FailingWithNodes.PROCESSES).as("redis-server processes after the failed tests")
                .noneMatch(ProcessHandle::isAlive);
        assertThat(FailingWithNodes.DIRECTORIES).as("server directories after the failed tests")
                .noneMatch(Files::exists);
    }

    /**
     * Fails every test on purpose while its servers run. Run only by the test above through EngineTestKit: its name
     * has no IT or Test suffix, so the build never runs it by itself.
     */
    @WithRedisNodes(2)
    static class FailingWithNodes {

        static final List<ProcessHandle> PROCESSES = new CopyOnWriteArrayList<>();
        static final List<Path> DIRECTORIES = new CopyOnWriteArrayList<>();

        private RedisNodes nodes;

        @BeforeEach
        void record(RedisNodes injected) {
            nodes = injected;
            for (RedisServer server : injected) {
                assertThat(server.ping()).isEqualTo("PONG");
                PROCESSES.add(ProcessHandle.of(server.pid()).orElseThrow());
                DIRECTORIES.add(server.dir());
            }
        }

        @Test
        void failsAnAssertion() {
            fail("deliberate assertion failure with %d servers running", nodes.size());
        }

        @Test
        void throwsAnException() {
            throw new IllegalStateException("deliberate exception with " + nodes.size() + " servers running");
        }

        @Test
        @WithRedisNodes(1)
        void failsWithItsNodePaused() {
            nodes.node(0).pause();
            fail("deliberate failure with a SIGSTOPped server");
        }

        @AfterEach
        void nothingKilledYet() {
            assertThat(PROCESSES.get(PROCESSES.size() - 1).isAlive()).isTrue();
        }
    }
}
