import { ConfigurationError } from '../../../errors/index.js';

/** The parts of the `ioredis` module the Redis adapter uses. */
export type IoredisModule = typeof import('ioredis');

/** How `ioredis` is imported; tests pass a stand-in to see what happens when it is missing. */
export type ImportIoredis = () => Promise<IoredisModule | { default: IoredisModule }>;

const importIoredisPackage: ImportIoredis = () => import('ioredis');

/**
 * Loads the `ioredis` driver on first use. `ioredis` is an optional peer dependency of `flowstack`: only
 * `flowstack/redis` needs it, so core users never install or load it. When it is missing, the error says
 * what to install instead of Node's bare "Cannot find package".
 */
export async function loadIoredis(
  importIoredis: ImportIoredis = importIoredisPackage,
): Promise<IoredisModule> {
  try {
    const loaded = await importIoredis();
    // ioredis is CommonJS: Node's ESM interop gives named exports, a bundler may hand back only `default`.
    return 'Redis' in loaded ? loaded : loaded.default;
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new ConfigurationError({
      message:
        'The Redis driver is not installed: install ioredis to use flowstack/redis (npm install ioredis).',
      cause: error,
    });
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
