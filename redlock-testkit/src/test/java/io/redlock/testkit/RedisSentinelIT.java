package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RedisSentinelIT {

    @Test
    void namesThePasswordProtectedMasterItMonitorsAndLeavesNothingBehind() throws Exception {
        long pid;
        Path dir;
        try (RedisServer master = RedisServer.builder().password("sentinel-pw").start();
                RedisSentinel sentinel = RedisSentinel.monitor("main", master)) {
            pid = sentinel.pid();
            dir = Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd"));
            try (StatefulRedisSentinelConnection<String, String> connection = TestkitClient.get()
                    .connectSentinel(RedisURI.create("redis://" + sentinel.address()))) {
                SocketAddress named = connection.sync().getMasterAddrByName("main");
                assertThat(named.toString()).endsWith(":" + master.port());
                assertThat(connection.sync().master("main")).containsEntry("flags", "master");
            }
        }
        assertThat(ProcessHandle.of(pid)).isEmpty();
        assertThat(dir).doesNotExist();
    }
}
