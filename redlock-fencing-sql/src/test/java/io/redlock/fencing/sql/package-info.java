/**
 * {@code FencedJdbc} on the servers users run: PostgreSQL and MariaDB, real processes of Debian's packages started by
 * the testkit, each at its default and its strictest isolation level ({@link io.redlock.fencing.sql.Database}).
 * Generated histories of many writers with paused stale holders ({@code FencedHistoriesIT}), inserts, deletes and
 * transactions of several rows, typed conflicts, and the fault-matrix rows with fenced storage on PostgreSQL.
 */
package io.redlock.fencing.sql;
