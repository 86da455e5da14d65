/**
 * File snapshots in a folder (seed 004: `snapshots/` beside the instance's data), one folder per
 * snapshot under one folder per thread:
 *
 *   <dir>/t-<hash of thread id>/<snapshot id>/record.json   the record (the commit point)
 *   <dir>/t-<hash of thread id>/<snapshot id>/c0, c1 …      the files' bytes
 *   <dir>/t-<hash of thread id>/<snapshot id>/events.jsonl  the append-only journal
 *
 * A snapshot is built in a temporary folder, every file flushed, then renamed into place and the parent
 * flushed: it exists whole or not at all. Each journal line is flushed before `append` returns.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileSnapshotError } from '../errors/index.js';
import type { FileSnapshotEvent, FileSnapshotRecord, FileSnapshotStore } from '../spec/index.js';
import { isFileSnapshotId } from './file-snapshot-id.js';
import { type FileSnapshotSchemas, fileSnapshotSchemas } from './internal/file-snapshot-schemas.js';
import { recordChecksum } from './internal/record-checksum.js';
import { syncPath, writeSynced } from './internal/sync-path.js';

/** A thread's folder: `t-` and the first 32 hex digits of the SHA-256 of its id. */
const threadFolderName = /^t-[0-9a-f]{32}$/;

/** Where the snapshot folder is. */
export interface DirectorySnapshotStoreOptions {
  /** The folder that holds every snapshot; made when the first snapshot is saved. */
  dir: string;
}

/**
 * @example
 * const snapshots = createDirectorySnapshotStore({ dir: '.flowstack/snapshots' });
 */
export function createDirectorySnapshotStore(options: DirectorySnapshotStoreOptions): FileSnapshotStore {
  const threadDir = (threadId: string) =>
    join(options.dir, `t-${createHash('sha256').update(threadId).digest('hex').slice(0, 32)}`);
  const snapshotDir = (threadId: string, id: string) => {
    if (!isFileSnapshotId(id))
      throw new FileSnapshotError({
        reason: 'not_found',
        snapshotId: id,
        message: `No file snapshot '${id}'.`,
      });
    return join(threadDir(threadId), id);
  };

  /**
   * The thread a folder belongs to, from the first snapshot record in it that names a thread whose
   * folder this is; `undefined` when none does (only unreadable or half-removed snapshots are left).
   */
  async function threadOfFolder(folder: string): Promise<string | undefined> {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter(isFileSnapshotId)) {
      const threadId = await readFile(join(folder, name, 'record.json'), 'utf8')
        .then((text) => (JSON.parse(text) as { threadId?: unknown } | null)?.threadId)
        .catch(() => undefined);
      if (typeof threadId === 'string' && threadDir(threadId) === folder) return threadId;
    }
    return undefined;
  }

  async function load(threadId: string, id: string): Promise<FileSnapshotRecord | undefined> {
    let text: string;
    try {
      text = await readFile(join(snapshotDir(threadId, id), 'record.json'), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const corrupt = (why: string, cause?: unknown) =>
      new FileSnapshotError({
        reason: 'corrupt',
        snapshotId: id,
        message: `File snapshot '${id}' cannot be read: ${why}. It was left as it is.`,
        cause,
      });
    let parsed: ReturnType<FileSnapshotSchemas['record']['safeParse']>;
    try {
      parsed = fileSnapshotSchemas().record.safeParse(JSON.parse(text));
    } catch (error) {
      throw corrupt('its record is not JSON', error);
    }
    if (!parsed.success)
      throw corrupt(`its record does not fit the schema (${parsed.error.issues[0]?.message})`);
    const record = parsed.data as FileSnapshotRecord;
    if (recordChecksum(record) !== record.checksum) throw corrupt('its record does not match its checksum');
    if (record.id !== id || record.threadId !== threadId) throw corrupt('its record belongs elsewhere');
    return record;
  }

  return {
    specVersion: 1,
    load,
    async save(record, contents) {
      const existing = await load(record.threadId, record.id);
      if (existing) return existing;
      const parent = threadDir(record.threadId);
      await mkdir(parent, { recursive: true });
      // What a save killed half-way left behind never became a snapshot.
      for (const name of await readdir(parent))
        if (name.startsWith(`.building-${record.id}-`))
          await rm(join(parent, name), { recursive: true, force: true });
      const building = join(parent, `.building-${record.id}-${randomBytes(6).toString('hex')}`);
      await mkdir(building);
      try {
        for (const [name, bytes] of contents) await writeSynced(join(building, name), bytes);
        await writeSynced(join(building, 'record.json'), JSON.stringify(record));
        await syncPath(building);
        await rename(building, snapshotDir(record.threadId, record.id));
      } catch (error) {
        await rm(building, { recursive: true, force: true });
        // Another process saved the same call's snapshot first: theirs stands.
        const raced = await load(record.threadId, record.id);
        if (raced) return raced;
        throw error;
      }
      await syncPath(parent);
      await syncPath(options.dir).catch(() => undefined);
      return record;
    },
    async readContent(threadId, id, content) {
      if (!/^c\d+$/.test(content))
        throw new FileSnapshotError({
          reason: 'corrupt',
          snapshotId: id,
          message: `Bad content name '${content}'.`,
        });
      try {
        return new Uint8Array(await readFile(join(snapshotDir(threadId, id), content)));
      } catch (error) {
        throw new FileSnapshotError({
          reason: 'corrupt',
          snapshotId: id,
          message: `File snapshot '${id}' has lost the content '${content}'.`,
          cause: error,
        });
      }
    },
    async append(threadId, id, event) {
      const handle = await open(join(snapshotDir(threadId, id), 'events.jsonl'), 'a', 0o600);
      try {
        await handle.write(`${JSON.stringify(event)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    async readEvents(threadId, id) {
      let text: string;
      try {
        text = await readFile(join(snapshotDir(threadId, id), 'events.jsonl'), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const lines = text.split('\n');
      // A line without its newline was cut short by a crash mid-write: it never happened.
      lines.pop();
      return lines.map((line, index) => {
        let parsed: ReturnType<FileSnapshotSchemas['event']['safeParse']> | undefined;
        try {
          parsed = fileSnapshotSchemas().event.safeParse(JSON.parse(line));
        } catch {
          parsed = undefined;
        }
        if (!parsed?.success)
          throw new FileSnapshotError({
            reason: 'corrupt',
            snapshotId: id,
            message: `Line ${index + 1} of file snapshot '${id}''s journal cannot be read. It was left as it is.`,
          });
        return parsed.data as FileSnapshotEvent;
      });
    },
    async remove(threadId, id) {
      const parent = threadDir(threadId);
      // Renamed out of the listed names first (one atomic step), then deleted: a crash in between
      // leaves a folder no one lists, cleared by the next removal in the thread.
      const doomed = join(parent, `.removed-${id}-${randomBytes(6).toString('hex')}`);
      try {
        await rename(snapshotDir(threadId, id), doomed);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      await syncPath(parent).catch(() => undefined);
      for (const name of await readdir(parent).catch(() => [] as string[]))
        if (name.startsWith('.removed-')) await rm(join(parent, name), { recursive: true, force: true });
    },
    async listThreads() {
      let folders: string[];
      try {
        folders = await readdir(options.dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const threads: string[] = [];
      for (const folder of folders.filter((name) => threadFolderName.test(name))) {
        const threadId = await threadOfFolder(join(options.dir, folder));
        if (threadId !== undefined) threads.push(threadId);
      }
      return threads.sort();
    },
    async list(threadId) {
      const dir = threadDir(threadId);
      // Most threads never took a snapshot and have no folder (every `deleteThread` lists its thread's
      // snapshots first): asked without a failed read, whose error costs more than the rest of a deletion.
      if (!existsSync(dir)) return [];
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const found: { id: string; createdAt: number; savedAt: number }[] = [];
      for (const name of names.filter(isFileSnapshotId)) {
        const record = await load(threadId, name).catch(() => undefined);
        // Two snapshots of one clock tick keep the order they were saved in.
        const savedAt = await stat(join(threadDir(threadId), name, 'record.json')).then(
          (info) => info.mtimeMs,
          () => 0,
        );
        // A corrupt snapshot is still listed (last), so that it can be seen and is never hidden.
        found.push({ id: name, createdAt: record?.createdAt ?? Number.MAX_SAFE_INTEGER, savedAt });
      }
      return found
        .sort((a, b) => a.createdAt - b.createdAt || a.savedAt - b.savedAt || a.id.localeCompare(b.id))
        .map((f) => f.id);
    },
  };
}
