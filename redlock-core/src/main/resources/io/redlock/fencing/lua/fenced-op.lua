-- fenced-op: one fenced read or write on the protected storage (docs/FENCING.md, FencedRedis).
-- Accepted if the token is larger than the recorded one, or equal and from the same lease; then the token and its
-- owner are recorded and the operation runs, all atomically.
-- KEYS[1] data key    KEYS[2] its high-water hash (fields token, owner)
-- ARGV[1] token    ARGV[2] lease value    ARGV[3] operation: set, hset, get or hget    ARGV[4], ARGV[5] its operands
-- Returns {1, token, value or false} when accepted, {0, the recorded token} when refused.
local token = tonumber(ARGV[1])
local high = redis.call('hget', KEYS[2], 'token')
if high then
  local h = tonumber(high)
  if token < h or (token == h and redis.call('hget', KEYS[2], 'owner') ~= ARGV[2]) then
    return {0, high}
  end
end
local op = ARGV[3]
local value = false
if op == 'set' then
  redis.call('set', KEYS[1], ARGV[4])
elseif op == 'hset' then
  redis.call('hset', KEYS[1], ARGV[4], ARGV[5])
elseif op == 'get' then
  value = redis.call('get', KEYS[1])
elseif op == 'hget' then
  value = redis.call('hget', KEYS[1], ARGV[4])
else
  return redis.error_reply('ERR unknown fenced operation ' .. tostring(op))
end
redis.call('hset', KEYS[2], 'token', ARGV[1], 'owner', ARGV[2])
return {1, ARGV[1], value}
