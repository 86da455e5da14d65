import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { FileSnapshotError } from '../errors/index.js';

/** A path a call named, checked to be inside the root. */
export interface ResolvedPath {
  /** Absolute path under the root. */
  absolute: string;
  /** Relative to the root, `/`-separated: how records name it. */
  relative: string;
}

/**
 * Resolves a path a tool call named against the allowed root, refusing (`FileSnapshotError`,
 * `outside_root`) anything that leaves it: `..` segments, an absolute path elsewhere, a NUL byte, the
 * root itself, or a symbolic link on the way that points out of the root (checked on the real path of
 * the deepest part that exists).
 */
export async function resolveWithinRoot(root: string, path: string): Promise<ResolvedPath> {
  const refuse = (why: string) =>
    new FileSnapshotError({ reason: 'outside_root', path, message: `Path '${path}' ${why}.` });
  if (path === '' || path.includes('\0')) throw refuse('is not a usable path');
  const realRoot = await resolveRoot(root);
  const absolute = resolve(realRoot, path);
  const inside = relative(realRoot, absolute);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    throw refuse(`is outside the allowed root '${realRoot}'`);
  const real = await realpathOfExisting(absolute);
  const realInside = relative(realRoot, real);
  if (realInside.startsWith('..') || isAbsolute(realInside))
    throw refuse('leads out of the allowed root through a symbolic link');
  return { absolute, relative: inside.split(sep).join('/') };
}

/** The real path of `path`, or of its deepest ancestor that exists with the rest appended. */
async function realpathOfExisting(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(await realpathOfExisting(parent), relative(parent, path));
  }
}

/** The root as the records name it: absolute, with symbolic links resolved. */
export function resolveRoot(root: string): Promise<string> {
  return realpath(resolve(root));
}
