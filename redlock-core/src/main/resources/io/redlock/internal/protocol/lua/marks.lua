-- marks: what a lock key holds while a lock many leases hold at once holds it — the readers of a read lock, the
-- permits of a semaphore — and the error of a lock asked for as the wrong kind; with the node's clock. Written once and
-- put in front of the scripts that take or free a lock of either kind (Scripts.withRules), and in front of shared. No
-- lease value has a ':', so none equals a mark: READ_MARK for readers, PERMITS_MARK .. n for a semaphore of n permits.
-- shared_now(): the node's clock in ms (node_clock).
-- shared_permits(holder): whether holder (a lock key's value, or nil or false) is a semaphore's mark.
-- shared_clash(holder, wanted): the error reply of a lock of the wrong kind: the lock key holds holder (a mark, or a
--   lease value) where this script takes wanted (a mark, or nil for a lock of one resource). Nothing is written.
local MARK = 'redlock:'
local READ_MARK = 'redlock:readers'
local PERMITS_MARK = 'redlock:permits:'
local function shared_now()
  local t = node_clock()
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
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
