package io.redlock.testkit;

/**
 * A child JVM for {@link ShutdownHookIT}: starts a server ({@code redis}, the default, {@code postgres} or
 * {@code mariadb}), prints its directory and pid, then waits to be killed.
 */
public final class ServerHolder {

    private ServerHolder() {
    }

    public static void main(String[] args) throws InterruptedException {
        String kind = args.length > 0 ? args[0] : "redis";
        if (kind.equals("redis")) {
            RedisServer server = RedisServer.launch();
            System.out.println("dir=" + server.dir());
            System.out.println("pid=" + server.pid());
        } else {
            SqlServer server = kind.equals("postgres") ? PostgresServer.launch() : MariaDbServer.launch();
            System.out.println("dir=" + server.dir());
            System.out.println("pid=" + server.pid());
        }
        System.out.flush();
        Thread.sleep(60_000); // bounded: the test terminates this JVM long before
    }
}
