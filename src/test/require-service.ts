import { connect } from 'node:net';

/** A server that integration tests need (DESIGN.md §9: real PostgreSQL and Redis on their default ports). */
export type ServiceKind = 'postgres' | 'redis';

const services: Record<ServiceKind, { label: string; port: number; probe: Buffer; answers: string }> = {
  // An SSLRequest: a PostgreSQL server answers one byte, 'S' or 'N' (or 'E' for an error).
  postgres: {
    label: 'PostgreSQL',
    port: 5432,
    probe: Buffer.from([0, 0, 0, 8, 4, 210, 22, 47]),
    answers: 'SNE',
  },
  // An inline PING: Redis answers '+PONG', or '-NOAUTH …' when it wants a password — it is there either way.
  redis: { label: 'Redis', port: 6379, probe: Buffer.from('PING\r\n'), answers: '+-' },
};

/** `host:port` of a service URL, without credentials, for messages. */
export function describeServiceAddress(kind: ServiceKind, url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || services[kind].port}`;
  } catch {
    return `(not a URL: ${kind})`;
  }
}

/**
 * Whether a PostgreSQL or Redis server answers at `url`: connects and sends the protocol's cheapest probe,
 * so that a port held by something else does not count. Never throws; `false` after `timeoutMs`
 * (default 1 s). Uses no driver, so a test file can decide to skip before loading one.
 *
 * @example
 * const available = await serviceAvailable('postgres', 'postgres://127.0.0.1:5432/test');
 */
export async function serviceAvailable(
  kind: ServiceKind,
  url: string,
  options: { timeoutMs?: number } = {},
): Promise<boolean> {
  const service = services[kind];
  let host: string;
  let port: number;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost';
    port = Number(parsed.port || service.port);
  } catch {
    return false;
  }
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    const finish = (available: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(available);
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 1_000);
    socket.once('connect', () => socket.write(service.probe));
    socket.once('data', (data) => finish(service.answers.includes(String.fromCharCode(data[0] ?? 0))));
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
  });
}

/** A test runner's `describe` with `describe.skip` (vitest, jest, mocha and node:test have both). */
export type DescribeWithSkip = ((name: string, body: () => void) => unknown) & {
  skip: (name: string, body: () => void) => unknown;
};

/** Options of {@link describeWithService}. */
export interface DescribeWithServiceOptions {
  kind: ServiceKind;
  url: string;
  /** What {@link serviceAvailable} said, awaited at the top of the test file. */
  available: boolean;
  describe: DescribeWithSkip;
  /** Where `FLOWSTACK_REQUIRE_SERVICES` is read. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * Registers `body` under `describe(name)` when the service is available. When it is not, the block is
 * skipped with a message saying which server is missing where — unless `FLOWSTACK_REQUIRE_SERVICES=1`
 * (as in CI), where the block runs anyway so that its tests fail instead of passing silently.
 *
 * @example
 * const url = 'postgres://127.0.0.1:5432/test';
 * const available = await serviceAvailable('postgres', url);
 * describeWithService({ kind: 'postgres', url, available, describe }, 'postgres store', () => { … });
 */
export function describeWithService(
  options: DescribeWithServiceOptions,
  name: string,
  body: () => void,
): void {
  const missing = `${services[options.kind].label} not reachable at ${describeServiceAddress(options.kind, options.url)}`;
  const required = (options.env ?? process.env).FLOWSTACK_REQUIRE_SERVICES === '1';
  if (options.available) {
    options.describe(name, body);
  } else if (required) {
    console.error(`${name}: ${missing}, and FLOWSTACK_REQUIRE_SERVICES=1 — running, so these tests fail.`);
    options.describe(`${name} (${missing})`, body);
  } else {
    console.warn(`${name}: ${missing} — skipped (FLOWSTACK_REQUIRE_SERVICES=1 makes this a failure).`);
    options.describe.skip(`${name} — ${missing} — skipped`, body);
  }
}
