-- Moves one file of a private-cloud job between statuses, atomically with the job's counters.
-- KEYS[1] job hash, KEYS[2] file hash
-- ARGV: statusSetPrefix, documentId, allowedFrom ('*' any, '-' must not exist, else comma list),
--       to, fieldsJson, pagesCompletedDelta, pagesFailedDelta, ttlSeconds
-- Returns {moved (0/1), settleNow (0/1), previousStatus or ''}.
local prefix, doc, allowed, to = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local prev = redis.call('HGET', KEYS[2], 'status') or ''
if allowed == '-' then
  if prev ~= '' then return {0, 0, prev} end
elseif allowed ~= '*' then
  local ok = false
  for s in string.gmatch(allowed, '[^,]+') do if s == prev then ok = true end end
  if not ok then return {0, 0, prev} end
end
if redis.call('EXISTS', KEYS[1]) == 0 then return {0, 0, prev} end
if prev ~= '' then redis.call('ZREM', prefix .. prev, doc) end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('ZADD', prefix .. to, seq, doc)
local fields = cjson.decode(ARGV[5])
fields['status'] = to
-- One HSET and at most one HDEL per file: enumeration sends this script for every object listed.
local set, unset = {}, {}
for k, v in pairs(fields) do
  if v == cjson.null then unset[#unset + 1] = k else set[#set + 1] = k; set[#set + 1] = tostring(v) end
end
redis.call('HSET', KEYS[2], unpack(set))
if #unset > 0 then redis.call('HDEL', KEYS[2], unpack(unset)) end
local ttl = tonumber(ARGV[8])
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('EXPIRE', prefix .. to, ttl)
local pc, pf = tonumber(ARGV[6]), tonumber(ARGV[7])
if pc ~= 0 then redis.call('HINCRBY', KEYS[1], 'pages_completed', pc) end
if pf ~= 0 then redis.call('HINCRBY', KEYS[1], 'pages_failed', pf) end
-- Settle when enumeration is over and nothing is queued or in flight; exactly one caller wins.
local settle = 0
local es = redis.call('HGET', KEYS[1], 'enum_status')
if (es == 'completed' or es == 'cancelled' or es == 'error')
  and redis.call('ZCARD', prefix .. 'queued') == 0
  and redis.call('ZCARD', prefix .. 'processing') == 0
  and redis.call('HSETNX', KEYS[1], 'settling', '1') == 1 then
  settle = 1
end
return {1, settle, prev}
