/**
 * `maxBodyBytes` holds on every route that takes a body, `/a2a` included, and is enforced while the body
 * streams in: a client that keeps sending is answered 413 once the limit is passed, long before it has
 * sent everything, and the server never holds more than the limit.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, tokens } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

const a2a = { name: 'Weather desk', description: 'Tells the weather.' };
const limit = 64 * 1024;

/**
 * Sends a chunked body of up to `totalBytes` (no Content-Length), waiting for the socket to drain between
 * chunks, and stops as soon as the response arrives. Says how the server answered and how much was sent.
 */
function streamBody(
  url: string,
  totalBytes: number,
): Promise<{ status: number; body: string; sent: number }> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.alice}`,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      },
    });
    req.on('response', (response) => {
      answered = true;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        body += text;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sent }));
      response.on('error', reject);
    });
    // The server may close the connection once it has answered; that is not a failure of the test.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = (): void => {
      while (!answered && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    req.write('{"padding":"');
    pump();
  });
}

describe('the body limit', () => {
  for (const path of ['/a2a', '/v1/threads']) {
    it(`answers a streamed body over the limit with 413 before reading it all: ${path}`, async () => {
      const server = await startTestServer({ server: { a2a, maxBodyBytes: limit } });
      running.push(server);
      const total = 400 * 1024 * 1024;
      const { status, body, sent } = await streamBody(`${server.url}${path}`, total);
      expect(status).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ code: 'body_too_large' });
      // Answered after a small part of the 400 MB (the limit plus what sat in socket buffers).
      expect(sent).toBeLessThan(32 * 1024 * 1024);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });
  }

  it('refuses a declared length over the limit on /a2a without reading the body', async () => {
    const server = await startTestServer({ server: { a2a, maxBodyBytes: limit } });
    running.push(server);
    const response = await fetch(`${server.url}/a2a`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: 'x'.repeat(limit) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'body_too_large' });
  });
});
