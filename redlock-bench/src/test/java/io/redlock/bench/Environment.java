package io.redlock.bench;

import io.redlock.testkit.RedisNodes;

/** One line on where the numbers come from: cores, JVM, OS, Redis version. */
final class Environment {

    private Environment() {
    }

    static String describe(RedisNodes nodes) {
        String info = nodes.node(0).redis(redis -> redis.info("server"));
        String version = info.lines().filter(line -> line.startsWith("redis_version:"))
                .map(line -> line.substring("redis_version:".length()).trim()).findFirst().orElse("?");
        return String.format("%s, redis-server %s: %d nodes on 127.0.0.1, same machine", machine(), version,
                nodes.size());
    }

    /** Cores, Java and OS. */
    static String machine() {
        return String.format("%d cores, Java %s (%s), %s %s %s", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.version"), System.getProperty("java.vm.name"),
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch"));
    }
}
