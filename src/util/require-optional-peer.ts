/**
 * Loads an optional peer dependency on first use, synchronously, for the parts of the core that need a
 * heavy or native package only when a user reaches for them (the SQLite store, the SQL guardrail). A
 * user who never does installs nothing and loads nothing; one who does and has not installed the
 * package gets a `ConfigurationError` that names what to install, not Node's bare "Cannot find module"
 * (docs/decisions/0071-light-install-and-optional-peers.md).
 */
import { createRequire } from 'node:module';
import { ConfigurationError } from '../errors/index.js';

export interface OptionalPeer {
  /** The module to load, a package name or a file inside one (`node-sql-parser/build/mysql.js`). */
  specifier: string;
  /** The package to install, as `npm install` takes it. */
  packageName: string;
  /** What the package is needed for, said in the error: "to use the SQLite store". */
  neededFor: string;
  /** What to do instead of installing it, when there is another way; added to the error. */
  alternative?: string;
}

const requireFromHere = createRequire(import.meta.url);

/** Requires the peer, or throws a `ConfigurationError` that says how to install it. */
export function requireOptionalPeer<T>(
  peer: OptionalPeer,
  load: (specifier: string) => unknown = requireFromHere,
): T {
  try {
    return load(peer.specifier) as T;
  } catch (error) {
    if (!isPackageMissing(error, peer.packageName)) throw error;
    const instead = peer.alternative ? ` ${peer.alternative}` : '';
    throw new ConfigurationError({
      message: `${peer.packageName} is not installed: install it ${peer.neededFor} (npm install ${peer.packageName}).${instead}`,
      cause: error,
    });
  }
}

/** Only the package itself missing counts; a broken install of it (a missing file inside) is its own error. */
function isPackageMissing(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && message.includes(`'${packageName}`);
}
