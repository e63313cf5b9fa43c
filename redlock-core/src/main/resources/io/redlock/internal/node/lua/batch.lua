-- batch: several lock operations queued for one node in the same turn, in one call. Each runs exactly
-- as its own script would, in order, isolated from the others: its own KEYS and ARGV, and an error in one (a key of
-- the wrong type) is that operation's reply alone. The operations' scripts are the branches of `op(script, KEYS,
-- ARGV)`, put in front of this text by ScriptBatch, in the order of its scripts, behind the rules they use, defined
-- once for them all (so the operations share what a rule keeps for a script run: the node's clock, node_clock).
-- KEYS[1..] the operations' keys, one operation's after the other's
-- ARGV[1] the plan: three bytes per operation, its script (its branch of op), key count and arg count; n operations
-- ARGV[2 ..] the operations' args, one operation's after the other's
-- Returns one element per operation: its script's integer reply, or a string (the error) if it failed: the error
-- exactly as the failed command inside the operation raised it ("OOM command not allowed ..." on Redis 7,
-- "@user_script: 3: -OOM command not allowed ..." on Redis 6), so it is classed as the operation alone (Failures).
local plan = ARGV[1]
local n = #plan / 3
local out = {}
local k = 0
local a = 1
for j = 1, n do
  local script, nk, na = string.byte(plan, 3 * j - 2, 3 * j)
  local keys, argv = {unpack(KEYS, k + 1, k + nk)}, {unpack(ARGV, a + 1, a + na)}
  k = k + nk
  a = a + na
  local ok, reply = pcall(op, script, keys, argv)
  if ok and type(reply) == 'number' then
    out[j] = reply
  elseif type(reply) == 'table' and reply.err then
    out[j] = reply.err
  elseif not ok then
    out[j] = tostring(reply)
  else
    out[j] = 'ERR the batched operation returned a ' .. type(reply) .. ', not an integer'
  end
end
return out
