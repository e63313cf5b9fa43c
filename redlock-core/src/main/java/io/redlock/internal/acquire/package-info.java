/**
 * Acquisition; not exported. {@code Acquisitions} takes the acquire calls of every kind of lock (the checks, the keys
 * of its kind, the calls closing ends) and starts one {@code AcquireLoop} per call: rounds until one wins or the wait
 * is spent, paced by {@code Backoff}, queued with fencing, woken by release notices. Each round is an
 * {@code Attempt} (SPEC R3–R5, FENCING.md steps 1–4), which hands a lease won to the lease layer and cleans up
 * after a lost one; {@code Acquiring} is a call's stage, which also tells how it ended.
 */
package io.redlock.internal.acquire;
