package io.redlock.spring.app;

/** What the {@code @Locked} resource expressions look into: {@code 'orders:' + #order.id}. */
public class Order {

    private final String id;

    public Order(String id) {
        this.id = id;
    }

    public String getId() {
        return id;
    }
}
