-- readers: the rules of a read lock, written once and put in front of the scripts that read-lock a resource
-- (acquire-read, commit-read, extend-read, release-read: Scripts.withRules). While read-locked, the lock key holds
-- READ_MARK, which no lease value can equal (a value is base64url, without ':'), so a lock of one resource (ours or
-- another Redlock client's SET NX) and a writer are refused; the readers are a sorted set of reader value by when
-- its entry lapses, in the node's clock (ms). The lock key lives as long as the longest reader, so it expires with
-- the last one, and its holder's death frees the resource.
-- read_now(): the node's clock in ms (TIME), read once per script.
-- read_live(readers, value, now): whether value is a reader whose entry has not lapsed.
-- read_keep(lock, readers, now): after a change, the lock key and the readers live until the longest live reader
--   lapses; with no live reader left, both are deleted. Returns true if a reader is left.
local READ_MARK = 'redlock:readers'
local function read_now()
  local t = redis.call('time')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function read_live(readers, value, now)
  local lapses = redis.call('zscore', readers, value)
  return lapses ~= false and lapses ~= nil and tonumber(lapses) > now
end
local function read_keep(lock, readers, now)
  redis.call('zremrangebyscore', readers, '-inf', now)
  local longest = redis.call('zrange', readers, -1, -1, 'WITHSCORES')[2]
  if longest == nil then
    if redis.call('get', lock) == READ_MARK then
      redis.call('del', lock)
    end
    redis.call('del', readers)
    return false
  end
  local keep = math.max(tonumber(longest) - now, 1)
  redis.call('set', lock, READ_MARK, 'PX', keep)
  redis.call('pexpire', readers, keep)
  return true
end
