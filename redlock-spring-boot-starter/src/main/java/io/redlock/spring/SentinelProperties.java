package io.redlock.spring;

import java.util.ArrayList;
import java.util.List;

/** {@code redlock.sentinel.*}: a sentinel-managed master as the single node (SPEC S5). */
public class SentinelProperties {

    /** Name of the master, as the sentinels know it. */
    private String masterName;

    /** Sentinels as host:port (port 26379 if left out). */
    private List<String> addresses = new ArrayList<>();

    /** Password of the master (and its replicas). Never logged. */
    private String password;

    /** Password of the sentinels themselves, if they require one. Never logged. */
    private String sentinelPassword;

    /** Database index on the master. */
    private Integer database;

    public String getMasterName() {
        return masterName;
    }

    public void setMasterName(String masterName) {
        this.masterName = masterName;
    }

    public List<String> getAddresses() {
        return addresses;
    }

    public void setAddresses(List<String> addresses) {
        this.addresses = addresses == null ? new ArrayList<>() : new ArrayList<>(addresses);
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getSentinelPassword() {
        return sentinelPassword;
    }

    public void setSentinelPassword(String sentinelPassword) {
        this.sentinelPassword = sentinelPassword;
    }

    public Integer getDatabase() {
        return database;
    }

    public void setDatabase(Integer database) {
        this.database = database;
    }
}
