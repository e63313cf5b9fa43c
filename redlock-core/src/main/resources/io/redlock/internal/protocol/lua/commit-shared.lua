-- commit-shared: commit-fence for a reader or a permit holder (docs/FENCING.md step 3, "Read-write locks",
-- "Semaphores"): raise the counter to the chosen token T while we are a live holder here, refusing if a grant we never
-- saw already raised it past T.
-- KEYS[1] lock key    KEYS[2] fencing counter    KEYS[3] holders (readers or permits)    (the first KEYS of the acquire)
-- ARGV[1] value    ARGV[2] token: T    ARGV[3] clockFloor: "1" with the clock floor
-- ARGV[4] counterTtl: how long the counter lives, in ms
-- ARGV[5] strict: "1" for a permit: a counter already at T is refused too (fence_commit's strict; a reader's is not:
-- readers that hold together may share a token, permits may not)
-- Returns 1 (committed), 0 (we are not a live holder here) or -1 (counter above T, or at T for a permit).
if not shared_live(KEYS[3], ARGV[1], shared_now()) then
  return 0
end
return fence_commit(KEYS[2], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
