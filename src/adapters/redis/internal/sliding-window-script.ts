import { createHash } from 'node:crypto';

/**
 * The sliding-window log of one key, checked and updated in one Lua script so that Redis runs it
 * atomically: no other client's command runs between the count and the add, whichever process sends
 * it. Same rule as the in-memory limiter: a call admitted at `t` counts while `now < t + windowMs`.
 *
 * KEYS[1]  the key's log, a sorted set of admitted calls scored by their time in ms
 * ARGV[1]  limit; ARGV[2] windowMs; ARGV[3] now in ms, or '' for the Redis server's clock;
 * ARGV[4]  a member unique to this call
 * Returns  {1, remaining} when admitted, {0, retryAfterMs} when refused.
 */
export const slidingWindowScript = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
if used >= limit then
  local freeing = now
  if limit > 0 then
    freeing = tonumber(redis.call('ZRANGE', KEYS[1], used - limit, used - limit, 'WITHSCORES')[2])
  end
  return {0, math.max(1, freeing + window - now)}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, limit - used - 1}
`;

/** The script's SHA-1, for EVALSHA; the script is sent in full only when Redis does not know it yet. */
export const slidingWindowSha = createHash('sha1').update(slidingWindowScript).digest('hex');
