package io.redlock.faults;

import io.redlock.testkit.history.Event;
import java.util.List;

/**
 * What a row's scenario leaves to be checked: its stopped workload, and events recorded elsewhere (a child JVM's).
 *
 * @param extraPlain  further events of the plain history
 * @param extraFenced further events of the fenced history
 */
record Measured(Workload workload, List<Event> extraPlain, List<Event> extraFenced) {

    Measured {
        extraPlain = List.copyOf(extraPlain);
        extraFenced = List.copyOf(extraFenced);
    }

    static Measured of(Workload workload) {
        return new Measured(workload, List.of(), List.of());
    }
}
