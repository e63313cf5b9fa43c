package io.redlock.fencing.sql;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** A test class that runs against a PostgreSQL and a MariaDB server of its own, started before its tests. */
abstract class BothDatabases {

    static Database postgres;
    static Database mariadb;

    @BeforeAll
    static void startBoth() {
        postgres = Database.postgres();
        mariadb = Database.mariadb();
    }

    @AfterAll
    static void stopBoth() {
        if (postgres != null) { // null if it could not start: the other one is closed all the same
            postgres.close();
            postgres = null;
        }
        if (mariadb != null) {
            mariadb.close();
            mariadb = null;
        }
    }
}
