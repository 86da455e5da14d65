/**
 * A folder reached without following a symbolic link anywhere on its path, so that what a rollback writes
 * lands in the folder that was checked even if someone swaps a folder on the way for a link meanwhile
 * (issue 31 item 7; docs/decisions/0077).
 *
 * Every path a snapshot or a rollback touches is built on the root's real path, so no part of it is
 * legitimately a link. On Linux the folder is opened one name at a time, each relative to the handle of
 * the one above (through `/proc/self/fd/<handle>/<name>`) and with `O_NOFOLLOW`: a name that is a link
 * is refused, and names inside the folder are resolved against the open handle, never again against the
 * path — a swap after the walk cannot redirect them. Elsewhere the folder's real path must equal its
 * path, checked when it is opened and again right before each write is moved into place.
 */
import { existsSync, constants as fs } from 'node:fs';
import { type FileHandle, mkdir, open, realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { FileSnapshotError } from '../../errors/index.js';

/** An opened folder: the path to use for a name inside it, and its flush. */
export interface NoFollowFolder {
  /** The path of `name` inside this folder, resolved against the open folder where the system allows. */
  at(name: string): string;
  /** Refuses (`outside_root`) when the folder is no longer where it was checked to be. */
  verify(): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

const descriptorFolder = '/proc/self/fd';
const hasDescriptorPaths = process.platform === 'linux' && existsSync(descriptorFolder);

function linkOnTheWay(folder: string, cause?: unknown): FileSnapshotError {
  return new FileSnapshotError({
    reason: 'outside_root',
    path: folder,
    message: `'${folder}' has a symbolic link or a file on its way; nothing was written through it.`,
    cause,
  });
}

/**
 * Opens `folder` (absolute) without following links; with `create`, missing folders are made. Resolves
 * with `undefined` when a folder on the way is missing and `create` is off.
 */
export async function openFolderNoFollow(
  folder: string,
  options: { create: boolean },
): Promise<NoFollowFolder | undefined> {
  const absolute = resolve(folder);
  return hasDescriptorPaths ? openByHandles(absolute, options) : openByRealPath(absolute, options);
}

async function openByHandles(
  folder: string,
  options: { create: boolean },
): Promise<NoFollowFolder | undefined> {
  let handle: FileHandle = await open(sep, fs.O_RDONLY | fs.O_DIRECTORY);
  try {
    for (const name of folder.split(sep).filter((part) => part !== '')) {
      const next = `${descriptorFolder}/${handle.fd}/${name}`;
      if (options.create)
        await mkdir(next).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
      let opened: FileHandle;
      try {
        opened = await open(next, fs.O_RDONLY | fs.O_DIRECTORY | fs.O_NOFOLLOW);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && !options.create) {
          await handle.close();
          return undefined;
        }
        if (code === 'ELOOP' || code === 'ENOTDIR') throw linkOnTheWay(folder, error);
        throw error;
      }
      await handle.close();
      handle = opened;
    }
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  const opened = handle;
  return {
    at: (name) => `${descriptorFolder}/${opened.fd}/${name}`,
    // Names resolve against the handle, so only a folder moved away as a whole could mislead: its real
    // path, read from the handle, must still be the one that was checked.
    async verify() {
      if ((await realpath(`${descriptorFolder}/${opened.fd}`)) !== folder) throw linkOnTheWay(folder);
    },
    sync: () => opened.sync(),
    close: () => opened.close(),
  };
}

async function openByRealPath(
  folder: string,
  options: { create: boolean },
): Promise<NoFollowFolder | undefined> {
  if (options.create) await mkdir(folder, { recursive: true });
  const verify = async () => {
    let real: string;
    try {
      real = await realpath(folder);
    } catch (error) {
      throw linkOnTheWay(folder, error);
    }
    if (real !== folder) throw linkOnTheWay(folder);
  };
  if (!options.create && !existsSync(folder)) return undefined;
  await verify();
  return {
    at: (name) => join(folder, name),
    verify,
    async sync() {
      const handle = await open(folder, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    close: async () => undefined,
  };
}
