import { ConfigurationError } from '../../../errors/index.js';

/** The parts of the `bullmq` module the turn queue uses. */
export type BullmqModule = typeof import('bullmq');
/** The parts of the `ioredis` module the turn queue uses. */
export type IoredisModule = { Redis: typeof import('ioredis').Redis };

/** The two drivers, loaded together. */
export interface QueueDrivers {
  bullmq: BullmqModule;
  ioredis: IoredisModule;
}

/** How the drivers are imported; tests pass a stand-in to see what happens when one is missing. */
export type ImportQueueDrivers = () => Promise<QueueDrivers>;

const importPackages: ImportQueueDrivers = async () => ({
  bullmq: await import('bullmq'),
  ioredis: { Redis: (await import('ioredis')).Redis },
});

/**
 * Loads `bullmq` and `ioredis` on first use. Both are optional peer dependencies of `flowstack`: only
 * `flowstack/bullmq` needs them, so core users never install or load them. When one is missing, the
 * error says what to install instead of Node's bare "Cannot find package".
 */
export async function loadQueueDrivers(
  importDrivers: ImportQueueDrivers = importPackages,
): Promise<QueueDrivers> {
  try {
    return await importDrivers();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new ConfigurationError({
      message:
        'The queue drivers are not installed: install bullmq and ioredis to use flowstack/bullmq (npm install bullmq ioredis).',
      cause: error,
    });
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
