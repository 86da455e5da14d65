/**
 * Finds a Node.js that has `node:sqlite` (22.5 or later): `BENCH_NODE22` (the path of a `node` binary), else
 * the Node running the bench when it is recent enough, else the one the bench keeps in `bench/.cache/node22`,
 * installed there on first use from the npm registry's `node-<platform>-<arch>` package (as `npm install` does
 * for any package; about 30 MB). Node 22.5–22.12 need `--experimental-sqlite`; later versions do not.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lastJsonLine, runProcess } from '../shared/run-process.js';

export interface SqliteNode {
  path: string;
  version: string;
  /** Node's module ABI, which a native addon is built for. */
  abi: string;
  flags: string[];
  /** The folder with `include/node` (headers for building a native addon for it), when known. */
  nodeDir?: string;
}

export async function findNode22(options: {
  cacheDir: string;
  log: (text: string) => void;
}): Promise<SqliteNode | { skipped: string }> {
  const candidates: { path: string; nodeDir?: string }[] = [];
  if (process.env.BENCH_NODE22) candidates.push({ path: process.env.BENCH_NODE22 });
  candidates.push({ path: process.execPath });
  const packageName = `node-${process.platform}-${process.arch}`;
  const packageDir = join(options.cacheDir, 'node22', 'node_modules', packageName);
  const cached = { path: join(packageDir, 'bin', 'node'), nodeDir: packageDir };
  for (const candidate of [...candidates, cached]) {
    const found = await describeNode(candidate.path, candidate.nodeDir);
    if (found) return found;
  }
  if (process.platform === 'win32') return { skipped: 'skipped: no Node ≥ 22.5 (set BENCH_NODE22)' };
  options.log(`sqlite drivers: installing ${packageName}@22 into ${join(options.cacheDir, 'node22')}`);
  try {
    await runProcess(
      'npm',
      [
        'install',
        '--prefix',
        join(options.cacheDir, 'node22'),
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        `${packageName}@22`,
      ],
      { timeoutMs: 300_000 },
    );
  } catch (error) {
    return {
      skipped: `skipped: no Node ≥ 22.5 (installing ${packageName}@22 failed: ${(error as Error).message.split('\n')[0]})`,
    };
  }
  return (await describeNode(cached.path, cached.nodeDir)) ?? { skipped: 'skipped: no Node ≥ 22.5' };
}

async function describeNode(path: string, nodeDir?: string): Promise<SqliteNode | undefined> {
  if (!existsSync(path)) return undefined;
  try {
    const { stdout } = await runProcess(
      path,
      ['-e', 'console.log(JSON.stringify({ version: process.version, abi: process.versions.modules }))'],
      { timeoutMs: 30_000 },
    );
    const { version, abi } = lastJsonLine<{ version: string; abi: string }>(stdout);
    const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 5)) return undefined;
    const flags = major === 22 && minor < 13 ? ['--experimental-sqlite'] : [];
    const headers = nodeDir && existsSync(join(nodeDir, 'include', 'node')) ? { nodeDir } : {};
    return { path, version, abi, flags, ...headers };
  } catch {
    return undefined;
  }
}
