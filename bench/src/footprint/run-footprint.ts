/**
 * The footprint section of the bench: cold import and install size of flowstack and the four peers, in one
 * run. The full plan installs every subject afresh and imports all five. The quick plan imports flowstack and
 * the AI SDK (the target's peer) and reuses the trees of the last run that installed them
 * (`bench/.cache/install-sizes.json`): the peers' whole rows, since their installs take a minute or more and do
 * not change between two quick runs, and flowstack's dependencies while the fields of its `package.json` that
 * decide them are unchanged, with the size of the freshly packed tarball's own files.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listFootprintSubjects } from './footprint-subjects.js';
import { type ColdStartRow, measureColdStart } from './measure-cold-start.js';
import { type InstallRow, measureInstalls } from './measure-install.js';

export interface Footprint {
  coldStart: ColdStartRow[];
  install: InstallRow[];
  /** Fresh processes per subject for the cold import. */
  runs: number;
  failures: string[];
}

export async function runFootprint(options: {
  quick: boolean;
  benchDir: string;
  repoDir: string;
  log: (text: string) => void;
}): Promise<{ footprint: Footprint; cleanUp(): void }> {
  const subjects = listFootprintSubjects(options.benchDir, options.repoDir);
  const cachePath = join(options.benchDir, '.cache', 'install-sizes.json');
  const cached = options.quick ? readCache(cachePath) : new Map<string, InstallRow>();
  options.log(`footprint: installing ${subjects.length} packages into empty projects`);
  const install = await measureInstalls({ subjects, repoDir: options.repoDir, cached, log: options.log });
  writeCache(cachePath, install.rows);
  const runs = options.quick ? 3 : 7;
  // The quick plan imports what the targets compare: flowstack and the AI SDK.
  const imported = options.quick
    ? subjects.filter((s) => s.framework === 'flowstack' || s.framework === 'ai-sdk')
    : subjects;
  options.log(`footprint: cold import, ${runs} fresh processes per framework, alternating`);
  const cold = await measureColdStart({
    subjects: imported,
    runs,
    benchDir: options.benchDir,
    log: options.log,
  });
  return {
    footprint: {
      coldStart: cold.rows,
      install: install.rows,
      runs,
      failures: [...install.failures, ...cold.failures],
    },
    cleanUp: install.cleanUp,
  };
}

function readCache(path: string): Map<string, InstallRow> {
  if (!existsSync(path)) return new Map();
  try {
    const rows = JSON.parse(readFileSync(path, 'utf8')) as InstallRow[];
    return new Map(rows.map((row) => [row.framework === 'flowstack' ? 'flowstack' : row.installed, row]));
  } catch {
    return new Map();
  }
}

/** Keeps this run's rows (fresh or reused) for the next quick run. */
function writeCache(path: string, rows: readonly InstallRow[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `${JSON.stringify(
      rows.map((row) => ({ ...row, cached: false })),
      null,
      2,
    )}\n`,
  );
}
