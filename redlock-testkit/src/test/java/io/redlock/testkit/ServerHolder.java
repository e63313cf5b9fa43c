package io.redlock.testkit;

/** A child JVM for {@link ShutdownHookIT}: starts a server, prints its pid, then waits to be killed. */
public final class ServerHolder {

    private ServerHolder() {
    }

    public static void main(String[] args) throws InterruptedException {
        RedisServer server = RedisServer.launch();
        System.out.println("dir=" + server.dir());
        System.out.println("pid=" + server.pid());
        System.out.flush();
        Thread.sleep(60_000); // bounded: the test terminates this JVM long before
    }
}
