/**
 * Install size, as a user gets it: each subject installed alone into a new empty project with `npm install`
 * (flowstack from `npm pack` of the build being measured, the peers at the versions the bench pins), with
 * install scripts off for every subject alike, so that no native build runs and what is measured is what the
 * registry delivers. What would have built is counted instead: the packages whose install runs a script (a
 * native addon's `node-gyp rebuild` included), from npm's record of the tree (`node_modules/.package-lock.json`).
 * npm's cache serves what it holds (`--prefer-offline`); the rest comes from the registry. The installs run
 * at the same time (nothing is timed here) and before the timed jobs; the projects are removed after them.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { FrameworkId } from '../frameworks/framework.js';
import { runProcess } from '../shared/run-process.js';
import type { FootprintSubject } from './footprint-subjects.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface InstallRow {
  framework: FrameworkId;
  /** What was installed: `npm install` arguments, or the tarball's name for flowstack. */
  installed: string;
  /** Sum of the sizes of the files under `node_modules`, bytes. */
  bytes: number;
  /** Packages in the installed tree, nested copies included. */
  packages: number;
  /** Packages whose install would run a script (native builds among them). */
  installScripts: string[];
  /** When the tree was installed (an earlier run's, when `cached`). */
  measuredAt: string;
  /** The quick plan reused an earlier run's tree: the peers' whole row, flowstack's dependencies. */
  cached: boolean;
  /** flowstack only: its `package.json` fields that decide the tree, and the tree's size without flowstack. */
  dependencyKey?: string;
  dependencyBytes?: number;
}

export interface InstallOutcome {
  rows: InstallRow[];
  failures: string[];
  /** Removes the projects installed into; called once nothing is timed any more (it is slow on a busy disk). */
  cleanUp(): void;
}

/**
 * Installs every subject into a project of its own, all at once. With `cached` (the quick plan), a peer whose
 * `installed` text has a row there is not installed again, and neither is flowstack when the fields of its
 * `package.json` that decide the tree are unchanged: its row is then the cached tree with the size of the new
 * tarball's files in place of the old.
 */
export async function measureInstalls(options: {
  subjects: readonly FootprintSubject[];
  repoDir: string;
  cached?: ReadonlyMap<string, InstallRow>;
  log: (text: string) => void;
}): Promise<InstallOutcome> {
  const work = mkdtempSync(join(tmpdir(), 'flowstack-install-'));
  const failures: string[] = [];
  const installs = options.subjects.map(async (subject): Promise<InstallRow | undefined> => {
    try {
      if (subject.framework === 'flowstack')
        return await installFlowstack({ ...options, work, cached: options.cached?.get('flowstack') });
      const installed = subject.installSpecs.join(' ');
      const cached = options.cached?.get(installed);
      if (cached) return { ...cached, cached: true };
      const row = await installInto(join(work, subject.framework), subject.installSpecs);
      options.log(`  installed ${installed}: ${megabytesOf(row.bytes)}, ${row.packages} packages`);
      return {
        framework: subject.framework,
        installed,
        ...row,
        measuredAt: new Date().toISOString(),
        cached: false,
      };
    } catch (error) {
      failures.push(`install of ${subject.framework}: ${(error as Error).message.split('\n')[0]}`);
      return undefined;
    }
  });
  const rows = (await Promise.all(installs)).filter((row): row is InstallRow => row !== undefined);
  return { rows, failures, cleanUp: () => rmSync(work, { recursive: true, force: true }) };
}

async function installFlowstack(options: {
  repoDir: string;
  work: string;
  cached: InstallRow | undefined;
  log: (text: string) => void;
}): Promise<InstallRow> {
  const tarball = await packFlowstack(options.repoDir, options.work);
  const installed = basename(tarball.path);
  const dependencyKey = readDependencyKey(options.repoDir);
  const { cached } = options;
  if (cached?.dependencyKey === dependencyKey && cached.dependencyBytes !== undefined)
    return { ...cached, installed, bytes: cached.dependencyBytes + tarball.unpackedSize, cached: true };
  const row = await installInto(join(options.work, 'flowstack'), [tarball.path]);
  options.log(`  installed ${installed}: ${megabytesOf(row.bytes)}, ${row.packages} packages`);
  const own = sizeOf(join(options.work, 'flowstack', 'node_modules', 'flowstack'));
  return {
    framework: 'flowstack',
    installed,
    ...row,
    measuredAt: new Date().toISOString(),
    cached: false,
    dependencyKey,
    dependencyBytes: row.bytes - own,
  };
}

/** The fields of flowstack's `package.json` that decide what `npm install` puts beside it. */
function readDependencyKey(repoDir: string): string {
  const manifest = JSON.parse(readFileSync(join(repoDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const fields = [
    'dependencies',
    'optionalDependencies',
    'peerDependencies',
    'peerDependenciesMeta',
    'overrides',
  ];
  return JSON.stringify(fields.map((field) => manifest[field] ?? null));
}

const megabytesOf = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * Packs the build as it is (`--ignore-scripts`: `prepack` would clean and rebuild `dist/`, which the bench
 * already built and measures), into `work`. Returns the tarball's path and the size of its files.
 */
async function packFlowstack(repoDir: string, work: string): Promise<{ path: string; unpackedSize: number }> {
  const { stdout } = await runProcess(
    npm,
    ['pack', '--ignore-scripts', '--json', '--pack-destination', work],
    { cwd: repoDir, timeoutMs: 120_000 },
  );
  const listing = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    filename: string;
    unpackedSize: number;
  }[];
  const packed = listing[0];
  if (packed === undefined) throw new Error('npm pack listed no tarball');
  return { path: join(work, packed.filename), unpackedSize: packed.unpackedSize };
}

async function installInto(
  project: string,
  specs: readonly string[],
): Promise<{ bytes: number; packages: number; installScripts: string[] }> {
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "install-size", "version": "1.0.0", "private": true }\n',
  );
  await runProcess(
    npm,
    [
      'install',
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...specs,
    ],
    { cwd: project, timeoutMs: 600_000 },
  );
  const modules = join(project, 'node_modules');
  const tree = readInstalledTree(modules);
  return { bytes: sizeOf(modules), ...tree };
}

/** npm's hidden lockfile names every installed package (nested ones too) and whether it has an install script. */
function readInstalledTree(modules: string): { packages: number; installScripts: string[] } {
  const hidden = join(modules, '.package-lock.json');
  if (!existsSync(hidden)) throw new Error('npm wrote no node_modules/.package-lock.json');
  const lock = JSON.parse(readFileSync(hidden, 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean; link?: boolean }>;
  };
  const entries = Object.entries(lock.packages).filter(
    ([path, entry]) => path.includes('node_modules/') && !entry.link,
  );
  return {
    packages: entries.length,
    installScripts: entries
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  };
}

/**
 * Sum of the sizes of the regular files (not blocks on disk, which depend on the file system); links such as
 * `node_modules/.bin` point at files counted where they are.
 */
function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0);
}
