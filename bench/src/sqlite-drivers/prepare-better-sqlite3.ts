/**
 * A better-sqlite3 built for the Node that runs the driver comparison: the bench's own copy is built for the
 * Node that runs the bench, and a native addon loads only in the Node whose ABI it was built for. Installed
 * once into `bench/.cache/better-sqlite3-<version>-abi<abi>` (the version the bench has installed), with that
 * Node first on the PATH so that its install script fetches or compiles the binary for it (compiling takes a
 * few minutes, once), and kept for later runs.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { runProcess } from '../shared/run-process.js';
import type { SqliteNode } from './find-node22.js';

export async function prepareBetterSqlite3(options: {
  node: SqliteNode;
  benchDir: string;
  cacheDir: string;
  log: (text: string) => void;
}): Promise<{ folder: string; version: string }> {
  const version = (
    JSON.parse(
      readFileSync(join(options.benchDir, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'),
    ) as {
      version: string;
    }
  ).version;
  const folder = join(options.cacheDir, `better-sqlite3-${version}-abi${options.node.abi}`);
  if (await loads(options.node, folder)) return { folder, version };
  options.log(
    `sqlite drivers: building better-sqlite3 ${version} for Node ${options.node.version} (once; minutes)`,
  );
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), '{ "name": "better-sqlite3-for-node22", "private": true }\n');
  await runProcess(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', `better-sqlite3@${version}`],
    {
      cwd: folder,
      env: {
        ...process.env,
        PATH: `${dirname(options.node.path)}${delimiter}${process.env.PATH ?? ''}`,
        ...(options.node.nodeDir ? { npm_config_nodedir: options.node.nodeDir } : {}),
      },
      timeoutMs: 900_000,
    },
  );
  if (!(await loads(options.node, folder)))
    throw new Error(
      `better-sqlite3 ${version} did not load in Node ${options.node.version} after its install`,
    );
  return { folder, version };
}

async function loads(node: SqliteNode, folder: string): Promise<boolean> {
  if (!existsSync(join(folder, 'node_modules', 'better-sqlite3'))) return false;
  try {
    await runProcess(node.path, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
      cwd: folder,
      timeoutMs: 30_000,
    });
    return true;
  } catch {
    return false;
  }
}
