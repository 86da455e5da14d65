import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { requireOptionalPeer } from './require-optional-peer.js';

const peer = {
  specifier: 'better-sqlite3',
  packageName: 'better-sqlite3',
  neededFor: 'to use the SQLite store',
};

function notFound(name: string): never {
  throw Object.assign(new Error(`Cannot find module '${name}'\nRequire stack:\n- /app/x.js`), {
    code: 'MODULE_NOT_FOUND',
  });
}

describe('an optional peer', () => {
  it('loads when installed', () => {
    expect(requireOptionalPeer<{ sep: string }>({ ...peer, specifier: 'node:path' }).sep).toBe('/');
  });

  it('when missing, is a ConfigurationError that names what to install and the way around it', () => {
    const load = () => notFound('better-sqlite3');
    const missing = () => requireOptionalPeer({ ...peer, alternative: 'Or use createMemoryStore().' }, load);
    expect(missing).toThrow(ConfigurationError);
    expect(missing).toThrow(
      'better-sqlite3 is not installed: install it to use the SQLite store (npm install better-sqlite3). Or use createMemoryStore().',
    );
  });

  it('a package it needs that is missing is not reported as the peer missing', () => {
    const load = () => notFound('bindings');
    expect(() => requireOptionalPeer(peer, load)).toThrow("Cannot find module 'bindings'");
    expect(() => requireOptionalPeer(peer, load)).not.toThrow(ConfigurationError);
  });
});
