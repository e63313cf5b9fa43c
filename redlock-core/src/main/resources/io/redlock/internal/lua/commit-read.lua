-- commit-read: commit-fence for a reader (docs/FENCING.md step 3, "Read-write locks"): raise the counter to the chosen
-- token T while we are a live reader here, refusing if a grant we never saw already raised it past T.
-- KEYS[1] lock key    KEYS[2] fencing counter    KEYS[3] readers    (the KEYS of acquire-read; the queue is not used)
-- ARGV[1] value    ARGV[2] T    ARGV[3] "1" with the clock floor    ARGV[4] how long the counter lives, in ms
-- Returns 1 (committed), 0 (we are not a live reader here) or -1 (counter above T).
if not read_live(KEYS[3], ARGV[1], read_now()) then
  return 0
end
return fence_commit(KEYS[2], ARGV[2], ARGV[3], ARGV[4])
