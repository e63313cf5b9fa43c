package io.redlock.spring.app;

import io.redlock.Lease;
import io.redlock.spring.Leases;
import io.redlock.spring.Locked;

/** Called from inside {@link Orders}' locked methods, to show nesting. */
public class Inner {

    @Locked(resource = "'inner:' + #id")
    public Lease innerLease(String id) {
        return Leases.current().orElseThrow();
    }

    @Locked(resource = "#resource", maxWait = "0s")
    public Lease sameResource(String resource) {
        return Leases.current().orElseThrow();
    }
}
