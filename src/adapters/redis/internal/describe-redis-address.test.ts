import { describe, expect, it } from 'vitest';
import { describeRedisAddress } from './describe-redis-address.js';

describe('describeRedisAddress', () => {
  it('names host, port and database, never the credentials', () => {
    expect(describeRedisAddress({ url: 'redis://user:pw@cache.internal:6380/3' })).toBe(
      'cache.internal:6380/3',
    );
    expect(describeRedisAddress({ url: 'rediss://:pw@[::1]' })).toBe('[::1]:6379');
    expect(describeRedisAddress({ host: 'h', port: 7000, db: 0 })).toBe('h:7000');
    expect(describeRedisAddress({ url: 'not a url' })).toBe('(a Redis URL that is not a URL)');
  });
});
