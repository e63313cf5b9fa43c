package io.redlock.spring;

/** {@code redlock.single.*}: single-instance mode, one Redis (SPEC S4). */
public class SingleProperties {

    /** The Redis server, as a URI (redis://host:6379, rediss://...) or host:port. */
    private String address;

    /** Password of the Redis server; overrides one given in the address. Never logged. */
    private String password;

    /** Database index; overrides one given in the address. */
    private Integer database;

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public Integer getDatabase() {
        return database;
    }

    public void setDatabase(Integer database) {
        this.database = database;
    }
}
