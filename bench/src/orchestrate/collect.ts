/** What one bench run gathered, keyed for the report. */

import type { Footprint } from '../footprint/run-footprint.js';
import type { FrameworkId, Persistence } from '../frameworks/framework.js';
import type { ParallelReport, ResumeReport, SessionsReport, StepsReport } from '../jobs.js';
import type { SqliteDrivers } from '../sqlite-drivers/measure-sqlite-drivers.js';
import type { HotSpot } from './summarize-profile.js';

export type ParallelVia = 'agent' | 'batch-parallel-group' | 'batch-sequential';

export interface Collected {
  steps: Map<string, StepsReport[]>;
  parallel: Map<string, ParallelReport[]>;
  sessions: Map<FrameworkId, SessionsReport[]>;
  resume: Map<string, ResumeReport[]>;
  failures: { job: string; error: string }[];
  notes: string[];
  profiles: { title: string; busyMs: number; hotSpots: HotSpot[] }[];
  /** Cold import and install size of flowstack and the peers (absent in results of older runs). */
  footprint?: Footprint;
  /** `node:sqlite` against better-sqlite3 on Node ≥ 22.5, or why it was skipped. */
  sqliteDrivers?: SqliteDrivers;
}

export function createCollected(): Collected {
  return {
    steps: new Map(),
    parallel: new Map(),
    sessions: new Map(),
    resume: new Map(),
    failures: [],
    notes: [],
    profiles: [],
  };
}

export const stepsKey = (framework: FrameworkId, persistence: Persistence, k: number) =>
  `${framework}|${persistence}|${k}`;
export const parallelKey = (framework: FrameworkId, via: ParallelVia) => `${framework}|${via}`;
export const resumeKey = (framework: FrameworkId, start: 'cold' | 'warm') => `${framework}|${start}`;

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
