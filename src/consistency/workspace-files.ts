/**
 * The files a tool changes, as snapshots and rollbacks touch them. An interface so that a rollback's
 * writes can be counted (the SIGKILL test kills a process at a chosen one); `nodeWorkspaceFiles` is the
 * real thing.
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncPath, writeSynced } from './internal/sync-path.js';

/** What is at a path, as far as snapshots care. */
export interface WorkspaceFileInfo {
  /** `file` for a regular file; anything else (a folder, a link, a device) is `other`. */
  kind: 'file' | 'other';
  mode: number;
  size: number;
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

/** The real file system, through `node:fs/promises`, flushing what it writes. */
export const nodeWorkspaceFiles: WorkspaceFiles = {
  async inspect(path) {
    try {
      const info = await lstat(path);
      return { kind: info.isFile() ? 'file' : 'other', mode: info.mode & 0o7777, size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },
  read: async (path) => new Uint8Array(await readFile(path)),
  async write(path, bytes, mode) {
    const folder = dirname(path);
    await mkdir(folder, { recursive: true });
    const temporary = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.restore`);
    try {
      await writeSynced(temporary, bytes, mode);
      await chmod(temporary, mode); // the umask may have narrowed it
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    await syncPath(folder);
  },
  async removeFile(path) {
    await rm(path, { force: true });
    await syncPath(dirname(path)).catch(() => undefined);
  },
  async removeDir(path) {
    try {
      await rmdir(path);
      await syncPath(dirname(path)).catch(() => undefined);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  },
};
