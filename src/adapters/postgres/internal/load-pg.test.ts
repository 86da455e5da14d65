import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../errors/index.js';
import { loadPg } from './load-pg.js';

describe('loadPg', () => {
  it('loads the installed driver', async () => {
    const pg = await loadPg();
    expect(typeof pg.Pool).toBe('function');
    expect(typeof pg.TypeOverrides).toBe('function');
  });

  it('says to install pg when the package is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'pg'"), { code: 'ERR_MODULE_NOT_FOUND' });
    const error = await loadPg(() => Promise.reject(missing)).catch((caught: unknown) => caught);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('install pg to use flowstack/postgres');
    expect((error as Error).cause).toBe(missing);
  });

  it('passes any other load failure through unchanged', async () => {
    const broken = new SyntaxError('Unexpected token');
    await expect(loadPg(() => Promise.reject(broken))).rejects.toBe(broken);
  });
});
