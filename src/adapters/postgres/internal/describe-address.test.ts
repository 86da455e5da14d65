import { describe, expect, it } from 'vitest';
import { describeAddress } from './describe-address.js';

describe('describeAddress', () => {
  it('names host, port and database, never the credentials', () => {
    const address = describeAddress({ connectionString: 'postgres://app:s3cret@db.internal:6543/agents' });
    expect(address).toBe('db.internal:6543/agents');
  });

  it('fills in the default host and port', () => {
    expect(describeAddress({ connectionString: 'postgres:///agents' })).toBe('localhost:5432/agents');
    expect(describeAddress({ host: '10.0.0.5', database: 'x' })).toBe('10.0.0.5:5432/x');
    expect(describeAddress({})).toBe('localhost:5432');
  });

  it('does not echo a connection string it cannot parse', () => {
    expect(describeAddress({ connectionString: 'host=db password=s3cret' })).not.toContain('s3cret');
  });
});
