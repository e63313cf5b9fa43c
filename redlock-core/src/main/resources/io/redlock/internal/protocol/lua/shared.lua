-- shared: the rules of a lock many leases hold at once — the readers of a read lock, the permits of a semaphore —
-- written once and put in front of the scripts that take, commit, extend or free one (acquire-read, acquire-permit,
-- commit-shared, extend-shared, release-shared: Scripts.withRules), behind marks, whose marks and clock it uses. While
-- held, the lock key holds a mark (marks), so a lock of one resource (ours or another Redlock client's SET NX) is
-- refused. The holders are a sorted set of lease value by when its entry lapses, in the node's clock (ms). The lock
-- key lives as long as the longest holder, so it expires with the last one, and a holder's death frees its place.
-- shared_live(set, value, now): whether value is a holder whose entry has not lapsed.
-- shared_mark(lock): the mark the lock key holds, or nil (free, or held by a lease value).
-- shared_keep(lock, set, mark, now): after a change, drops lapsed holders; the lock key (set to mark, unless mark is
--   nil) and the holders live until the longest live holder lapses; with none left, both are deleted (the lock key
--   only if it holds mark). Returns true if a holder is left.
-- shared_left(lock, set, mark): shared_keep after a holder left (ZREM), the node's clock read only while the set is
--   still there: ZREM deletes a set with its last member, and with no set there shared_keep's only effect is the
--   lock key's deletion (it holds mark, read in the same run). Returns true if a holder is left.
-- shared_add(lock, set, mark, value, ttl, now, longest): value holds from now for ttl ms; the lock key holds mark as
--   long as the longest holder. longest, if given, is when the longest other holder lapses, read after lapsed holders
--   were dropped at now (nil: read here).
-- shared_slot(value): the slot of a permit holder's value (it ends in "." and the slot), or nil.
local function shared_live(set, value, now)
  local lapses = redis.call('zscore', set, value)
  return lapses ~= false and lapses ~= nil and tonumber(lapses) > now
end
local function shared_mark(lock)
  local holder = redis.call('get', lock)
  if holder and string.sub(holder, 1, #MARK) == MARK then
    return holder
  end
  return nil
end
local function shared_keep(lock, set, mark, now)
  redis.call('zremrangebyscore', set, '-inf', now)
  local longest = redis.call('zrange', set, -1, -1, 'WITHSCORES')[2]
  if longest == nil then
    if mark and redis.call('get', lock) == mark then
      redis.call('del', lock)
    end
    redis.call('del', set)
    return false
  end
  local keep = math.max(tonumber(longest) - now, 1)
  if mark then
    redis.call('set', lock, mark, 'PX', keep)
  end
  redis.call('pexpire', set, keep)
  return true
end
local function shared_left(lock, set, mark)
  if redis.call('exists', set) == 0 then
    if mark then
      redis.call('del', lock)
    end
    return false
  end
  return shared_keep(lock, set, mark, shared_now())
end
local function shared_add(lock, set, mark, value, ttl, now, longest)
  local lapses = now + tonumber(ttl)
  redis.call('zadd', set, lapses, value)
  if not longest then
    shared_keep(lock, set, mark, now)
    return
  end
  local keep = math.max(math.max(longest, lapses) - now, 1)
  redis.call('set', lock, mark, 'PX', keep)
  redis.call('pexpire', set, keep)
end
local function shared_slot(value)
  return tonumber(string.match(value, '%.(%d+)$'))
end
