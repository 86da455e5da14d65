/**
 * `npm run bench` at the repository root: builds flowstack, installs the benchmark's own dependencies
 * (the peers, `npm ci --prefix bench`) when they are missing or older than `bench/package-lock.json`,
 * then runs the benchmark, which writes `docs/benchmarks.md`. `npm run bench -- --quick` runs the quick
 * plan instead (under 3 minutes with the build, once the peers are installed): every target once, with
 * indicative figures, written to `bench/.tmp/benchmarks-quick.md` (bench/README.md). Works on a fresh clone
 * after `npm ci`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bench = join(root, 'bench');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// The bench's time budget counts from here, so that the build and a first install of the peers are inside it.
const startedAt = Date.now();

function run(args, cwd) {
  process.stdout.write(`> npm ${args.join(' ')}${cwd === root ? '' : ` (in ${cwd})`}\n`);
  const result = spawnSync(npm, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, FLOWSTACK_BENCH_STARTED_AT: String(startedAt) },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** npm ci writes `node_modules/.package-lock.json`; missing or older than the lock file means install. */
function benchDependenciesCurrent() {
  const installed = join(bench, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return false;
  return statSync(installed).mtimeMs >= statSync(join(bench, 'package-lock.json')).mtimeMs;
}

run(['run', 'build', '--silent'], root);
if (!benchDependenciesCurrent()) run(['ci', '--no-audit', '--no-fund'], bench);
const extra = process.argv.slice(2);
run(['run', extra.includes('--quick') ? 'bench:quick' : 'bench', '--silent'], bench);
