import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../errors/index.js';
import { loadIoredis } from './load-ioredis.js';

describe('loadIoredis', () => {
  it('loads the installed driver', async () => {
    const ioredis = await loadIoredis();
    expect(typeof ioredis.Redis).toBe('function');
  });

  it('says to install ioredis when the package is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'ioredis'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await loadIoredis(() => Promise.reject(missing)).catch((caught: unknown) => caught);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('install ioredis to use flowstack/redis');
    expect((error as Error).cause).toBe(missing);
  });

  it('passes any other load failure through unchanged', async () => {
    const broken = new SyntaxError('Unexpected token');
    await expect(loadIoredis(() => Promise.reject(broken))).rejects.toBe(broken);
  });
});
