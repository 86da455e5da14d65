/**
 * The files a tool changes, as snapshots and rollbacks touch them. An interface so that a rollback's
 * writes can be counted (the SIGKILL test kills a process at a chosen one); `nodeWorkspaceFiles` is the
 * real thing.
 */
import { randomBytes } from 'node:crypto';
import { constants as fs } from 'node:fs';
import { lstat, open, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { FileSnapshotError } from '../errors/index.js';
import { type NoFollowFolder, openFolderNoFollow } from './internal/open-folder-no-follow.js';

/** What is at a path, as far as snapshots care. */
export interface WorkspaceFileInfo {
  /** `file` for a regular file; anything else (a folder, a link, a device) is `other`. */
  kind: 'file' | 'other';
  mode: number;
  size: number;
  /**
   * How many names the file has. A file with more than one (a hard link) may be a file outside the root
   * under a name inside it, so snapshots and rollbacks refuse it. Left out, one is assumed.
   */
  links?: number;
}

/** The file operations snapshots and rollbacks use. */
export interface WorkspaceFiles {
  /** What is at `path` (not following a link there), or `undefined` when nothing is. */
  inspect(path: string): Promise<WorkspaceFileInfo | undefined>;
  read(path: string): Promise<Uint8Array>;
  /**
   * Puts `bytes` at `path` with `mode`, atomically: a temporary file in the same folder, flushed, then
   * renamed over `path`, and the folder flushed. Missing folders on the way are made.
   */
  write(path: string, bytes: Uint8Array, mode: number): Promise<void>;
  /** Removes a file; nothing there is fine. */
  removeFile(path: string): Promise<void>;
  /** Removes a folder if it is empty; a folder with something in it, or none, is left as it is. */
  removeDir(path: string): Promise<void>;
}

/**
 * The real file system. Paths are absolute and built on the root's real path, so none of their parts is
 * a link: every operation reaches its folder without following one (`openFolderNoFollow`), opens files
 * with `O_NOFOLLOW`, and refuses a file with more than one name — a folder swapped for a link, or a hard
 * link to a file elsewhere, while a rollback runs sends nothing outside the root (docs/decisions/0077).
 */
export const nodeWorkspaceFiles: WorkspaceFiles = {
  async inspect(path) {
    try {
      const info = await lstat(path);
      return {
        kind: info.isFile() ? 'file' : 'other',
        mode: info.mode & 0o7777,
        size: info.size,
        links: info.nlink,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },
  async read(path) {
    const folder = await openFolderNoFollow(dirname(path), { create: false });
    if (!folder) throw missing(path);
    try {
      const file = await openNoFollow(folder.at(basename(path)), fs.O_RDONLY);
      try {
        const info = await file.stat();
        if (!info.isFile() || info.nlink > 1) throw notOneFile(path);
        return new Uint8Array(await file.readFile());
      } finally {
        await file.close();
      }
    } finally {
      await folder.close();
    }
  },
  async write(path, bytes, mode) {
    const folder = (await openFolderNoFollow(dirname(path), { create: true })) as NoFollowFolder;
    const name = basename(path);
    const temporary = folder.at(`.${name}.${randomBytes(6).toString('hex')}.restore`);
    try {
      const file = await openNoFollow(temporary, fs.O_WRONLY | fs.O_CREAT | fs.O_EXCL, mode);
      try {
        await file.writeFile(bytes);
        await file.chmod(mode); // the umask may have narrowed it
        await file.sync();
      } finally {
        await file.close();
      }
      const there = await lstat(folder.at(name)).catch(() => undefined);
      if (there && (!there.isFile() || there.nlink > 1)) throw notOneFile(path);
      await folder.verify();
      await rename(temporary, folder.at(name));
      await folder.sync();
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    } finally {
      await folder.close();
    }
  },
  async removeFile(path) {
    const folder = await openFolderNoFollow(dirname(path), { create: false });
    if (!folder) return;
    try {
      await rm(folder.at(basename(path)), { force: true });
      await folder.sync().catch(() => undefined);
    } finally {
      await folder.close();
    }
  },
  async removeDir(path) {
    const folder = await openFolderNoFollow(dirname(path), { create: false });
    if (!folder) return;
    try {
      await rmdir(folder.at(basename(path)));
      await folder.sync().catch(() => undefined);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
    } finally {
      await folder.close();
    }
  },
};

async function openNoFollow(path: string, flags: number, mode?: number) {
  try {
    return await open(path, flags | fs.O_NOFOLLOW, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw notOneFile(path, error);
    throw error;
  }
}

function notOneFile(path: string, cause?: unknown): FileSnapshotError {
  return new FileSnapshotError({
    reason: 'not_a_file',
    path,
    message: `'${path}' is a link, not a file, or a file with more than one name (a hard link); it was left as it is.`,
    cause,
  });
}

function missing(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), {
    code: 'ENOENT',
    path,
  });
}
