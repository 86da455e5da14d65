/**
 * Cold import, side by side: each subject's root entry imported in fresh processes, the subjects alternating
 * run by run so that the machine's drift hits all of them alike. A first round, whose time is not used,
 * counts the module files each import loads and brings them into the operating system's cache (a serverless
 * host starts from a warm image too; a cold disk would measure the disk).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FrameworkId } from '../frameworks/framework.js';
import { lastJsonLine, runProcess } from '../shared/run-process.js';
import type { FootprintSubject } from './footprint-subjects.js';

const childScript = fileURLToPath(new URL('./import-child.js', import.meta.url));

export interface ColdStartRow {
  framework: FrameworkId;
  importText: string;
  /** Per process: the import's wall time, ms. */
  importMs: number[];
  /** Per process: the resident set size after the import, bytes. */
  rssBytes: number[];
  /** Module files the import loaded (the first, counting process). */
  modules: number;
}

export async function measureColdStart(options: {
  subjects: readonly FootprintSubject[];
  runs: number;
  benchDir: string;
  log: (text: string) => void;
}): Promise<{ rows: ColdStartRow[]; failures: string[] }> {
  const work = mkdtempSync(join(tmpdir(), 'flowstack-cold-start-'));
  const env = { ...process.env, NODE_ENV: 'production', FOOTPRINT_LOADED_FILE: join(work, 'loaded.txt') };
  const importOnce = async (subject: FootprintSubject, count: boolean) =>
    lastJsonLine<{ importMs: number; rssBytes: number; modules?: number }>(
      (
        await runProcess(process.execPath, [childScript, subject.specifier, ...(count ? ['--count'] : [])], {
          cwd: options.benchDir,
          env,
          timeoutMs: 60_000,
          timed: !count,
        })
      ).stdout,
    );
  const failures: string[] = [];
  const rows = new Map<FrameworkId, ColdStartRow>();
  try {
    // The first round counts the module files, and in doing so brings them into the cache; its time is not used.
    for (const subject of options.subjects) {
      try {
        const { modules } = await importOnce(subject, true);
        rows.set(subject.framework, {
          framework: subject.framework,
          importText: subject.importText,
          importMs: [],
          rssBytes: [],
          modules: modules ?? Number.NaN,
        });
      } catch (error) {
        failures.push(`cold import of ${subject.importText}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    for (let run = 0; run < options.runs; run++) {
      for (const subject of options.subjects) {
        const row = rows.get(subject.framework);
        if (!row) continue;
        try {
          const sample = await importOnce(subject, false);
          row.importMs.push(sample.importMs);
          row.rssBytes.push(sample.rssBytes);
        } catch (error) {
          rows.delete(subject.framework);
          failures.push(`cold import of ${subject.importText}: ${(error as Error).message.split('\n')[0]}`);
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { rows: [...rows.values()], failures };
}
