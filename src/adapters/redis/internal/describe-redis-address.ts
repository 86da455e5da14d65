/**
 * Names a Redis server for messages as `host:port/db`, never with the user name or password of the URL,
 * so that an error or a log line cannot leak a credential.
 */
export function describeRedisAddress(config: {
  url?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  db?: number | undefined;
}): string {
  let host = config.host;
  let port = config.port === undefined ? undefined : String(config.port);
  let db = config.db === undefined ? undefined : String(config.db);
  if (config.url !== undefined) {
    try {
      const url = new URL(config.url);
      host = url.hostname.replace(/^\[(.*)\]$/, '[$1]') || host;
      port = url.port || port;
      db = url.pathname.replace(/^\//, '') || db;
    } catch {
      return '(a Redis URL that is not a URL)';
    }
  }
  return `${host || 'localhost'}:${port || '6379'}${db && db !== '0' ? `/${db}` : ''}`;
}
