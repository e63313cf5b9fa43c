-- shared: the rules of a lock many leases hold at once — the readers of a read lock, the permits of a semaphore —
-- written once and put in front of the scripts that take, commit, extend or free one (acquire-read, acquire-permit,
-- commit-shared, extend-shared, release-shared: Scripts.withRules). While held, the lock key holds a mark, which no
-- lease value can equal (a value has no ':'), so a lock of one resource (ours or another Redlock client's SET NX) is
-- refused: READ_MARK for readers, PERMITS_MARK .. n for a semaphore of n permits. The holders are a sorted set of
-- lease value by when its entry lapses, in the node's clock (ms). The lock key lives as long as the longest holder,
-- so it expires with the last one, and a holder's death frees its place.
-- shared_now(): the node's clock in ms (TIME), read once per script.
-- shared_live(set, value, now): whether value is a holder whose entry has not lapsed.
-- shared_mark(lock): the mark the lock key holds, or nil (free, or held by a lease value).
-- shared_keep(lock, set, mark, now): after a change, drops lapsed holders; the lock key (set to mark, unless mark is
--   nil) and the holders live until the longest live holder lapses; with none left, both are deleted (the lock key
--   only if it holds mark). Returns true if a holder is left.
-- shared_add(lock, set, mark, value, ttl, now): value holds from now for ttl ms; the lock key holds mark as long as
--   the longest holder.
-- shared_slot(value): the slot of a permit holder's value (it ends in "." and the slot), or nil.
-- shared_permits(holder): whether holder (a lock key's value, or nil or false) is a semaphore's mark.
-- shared_clash(holder, wanted): the error reply of a lock of the wrong kind: the lock key holds holder (a mark, or a
--   lease value) where this script takes wanted (a mark, or nil for a lock of one resource). Nothing is written.
local MARK = 'redlock:'
local READ_MARK = 'redlock:readers'
local PERMITS_MARK = 'redlock:permits:'
local function shared_now()
  local t = redis.call('time')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
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
local function shared_add(lock, set, mark, value, ttl, now)
  redis.call('zadd', set, now + tonumber(ttl), value)
  shared_keep(lock, set, mark, now)
end
local function shared_slot(value)
  return tonumber(string.match(value, '%.(%d+)$'))
end
local function shared_permits(holder)
  return holder and string.sub(holder, 1, #PERMITS_MARK) == PERMITS_MARK or false
end
local function shared_kind(mark)
  if mark == nil then
    return 'a lock'
  elseif mark == READ_MARK then
    return 'a read lock'
  elseif shared_permits(mark) then
    return 'a semaphore of ' .. string.sub(mark, #PERMITS_MARK + 1) .. ' permits'
  end
  return mark
end
local function shared_clash(holder, wanted)
  local found = nil
  if string.sub(holder, 1, #MARK) == MARK then
    found = holder
  end
  return redis.error_reply('REDLOCKKIND held as ' .. shared_kind(found) .. ', asked for as ' .. shared_kind(wanted))
end
