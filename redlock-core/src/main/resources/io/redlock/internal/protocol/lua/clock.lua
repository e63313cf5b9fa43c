-- clock: the node's clock, written once and put first in front of the scripts whose rules read it (fence-grant's
-- fence_clock, marks' shared_now: Scripts.withRules).
-- node_clock(): the node's TIME, {seconds, microseconds}, read once per script run and shared by the rules that read
--   it: the script is atomic on the node, so everything it does happens at one instant of the node's clock, and a
--   reading taken earlier in it is never above the clock at any of its commands. The operations of a batch share it,
--   as they run at once.
local node_time = nil
local function node_clock()
  if not node_time then
    node_time = redis.call('time')
  end
  return node_time
end
