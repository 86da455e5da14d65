/** Where a pool connects, as far as its configuration says. */
export interface AddressConfig {
  connectionString?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  database?: string | undefined;
}

/**
 * Names a PostgreSQL server for messages as `host:port/database`, never with the user name or password
 * of the connection string, so that an error or a log line cannot leak a credential.
 */
export function describeAddress(config: AddressConfig): string {
  let host = config.host;
  let port = config.port === undefined ? undefined : String(config.port);
  let database = config.database;
  if (config.connectionString !== undefined) {
    try {
      const url = new URL(config.connectionString);
      host = decodeURIComponent(url.hostname) || url.searchParams.get('host') || host;
      port = url.port || port;
      database = decodeURIComponent(url.pathname.replace(/^\//, '')) || database;
    } catch {
      return '(a connection string that is not a URL)';
    }
  }
  return `${host || 'localhost'}:${port || '5432'}${database ? `/${database}` : ''}`;
}
