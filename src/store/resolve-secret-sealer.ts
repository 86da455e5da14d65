/**
 * Which key seals the arguments of calls held for later (docs/decisions/0078): `FLOWSTACK_SECRET_KEY`
 * (base64 of 32 bytes) when it is set, for any store; else, for the embedded SQLite store on a file, a key
 * generated once and kept 0600 beside the database (`.flowstack/secret.key` by default), so every process
 * on that file — `serve`, `flowstack approve`, a worker — opens what another sealed; else a key of this
 * agent alone. Under such a key a held call answered in another process cannot be opened there: it is
 * never run with a redaction marker, and the model is told to ask for the values again.
 */

import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigurationError } from '../errors/index.js';
import { createSecretSealer, type SecretSealer } from '../redact/index.js';
import type { StateStore } from '../spec/index.js';

/** The environment variable that holds the sealing key, base64 of 32 random bytes. */
export const secretKeyVariable = 'FLOWSTACK_SECRET_KEY';

export function resolveSecretSealer(
  store: StateStore,
  env: Record<string, string | undefined> = process.env,
): SecretSealer {
  const given = env[secretKeyVariable];
  if (given !== undefined && given !== '') return createSecretSealer({ key: decodeKey(given) });
  const path = (store as { path?: unknown }).path;
  if (store.kind === 'sqlite' && typeof path === 'string' && path !== '' && path !== ':memory:')
    return sealerBeside(path);
  return createSecretSealer({ key: randomBytes(32) });
}

/**
 * The sealer of the key file beside the database, read (or made) when first needed: an agent that never
 * holds a call with a secret leaves no key file, and opening needs the file to exist.
 */
function sealerBeside(databasePath: string): SecretSealer {
  const keyPath = join(dirname(resolve(databasePath)), 'secret.key');
  let sealer: SecretSealer | undefined;
  const sealerOf = (create: boolean) => {
    if (!sealer) {
      const key = readKey(keyPath) ?? (create ? createKey(keyPath) : undefined);
      if (key) sealer = createSecretSealer({ key });
    }
    return sealer;
  };
  return {
    seal: (text) => (sealerOf(true) as SecretSealer).seal(text),
    open: (sealed) => sealerOf(false)?.open(sealed),
  };
}

function decodeKey(text: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.byteLength !== 32)
    throw new ConfigurationError({
      message: `${secretKeyVariable} must be 32 random bytes in base64 (e.g. the output of \`openssl rand -base64 32\`); it decodes to ${key.byteLength} bytes.`,
    });
  return key;
}

/**
 * Makes the key file. It is written whole under a private name and then linked into place, so a process
 * that starts at the same moment reads either no file or the whole key, and exactly one key wins.
 */
function createKey(keyPath: string): Buffer {
  const draft = `${keyPath}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const descriptor = openSync(draft, 'wx', 0o600);
  try {
    writeSync(descriptor, randomBytes(32).toString('base64'));
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(draft, keyPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  const key = readKey(keyPath);
  if (!key) throw new ConfigurationError({ message: `The key file '${keyPath}' is not 32 bytes in base64.` });
  return key;
}

function readKey(keyPath: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(keyPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.byteLength !== 32)
    throw new ConfigurationError({ message: `The key file '${keyPath}' is not 32 bytes in base64.` });
  return key;
}
