/** `host:port` of a Redis URL, without credentials, for messages. */
export function describeServiceUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || 6379}`;
  } catch {
    return '(not a URL)';
  }
}
