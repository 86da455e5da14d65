import { open } from 'node:fs/promises';

/** Flushes a file or folder to disk, so that what was written or renamed in it survives a crash. */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes a whole file and flushes it before returning. */
export async function writeSynced(path: string, bytes: Uint8Array | string, mode = 0o600): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
