/**
 * The OpenAPI document against the server's real answers (issue 31, item 11): every main route is called
 * on a running server with a real agent, and each response body is validated with Ajv against the schema
 * the document gives for that route, status and content type. A response the document does not describe
 * (a missing status, an extra or renamed field where the schema is closed) fails here.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentAgent } from './fixtures/payment-agent.js';
import { api, startTestServer } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

type Operation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };

/** Validates real responses against the document the same server serves. */
function createConformanceCheck(document: {
  paths: Record<string, Record<string, Operation>>;
  components: unknown;
}) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // The document's references (#/components/…) resolve against this schema.
  ajv.addSchema({ $id: 'openapi', components: document.components });
  const compiled = new Map<string, ValidateFunction>();
  const seen: string[] = [];
  return {
    seen,
    async check(method: string, template: string, response: Response): Promise<unknown> {
      const label = `${method.toUpperCase()} ${template} → ${response.status}`;
      seen.push(label);
      const operation = document.paths[template]?.[method];
      expect(operation, `${label}: route documented`).toBeDefined();
      const documented = operation?.responses[String(response.status)];
      expect(documented, `${label}: status documented`).toBeDefined();
      const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
      const schema = documented?.content?.[type]?.schema;
      expect(schema, `${label}: content type ${type} documented`).toBeDefined();
      const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
      let validate = compiled.get(text);
      if (!validate) {
        validate = ajv.compile(JSON.parse(text));
        compiled.set(text, validate);
      }
      const body = await response.json();
      const valid = validate(body);
      expect({ label, errors: valid ? [] : validate.errors }).toEqual({ label, errors: [] });
      return body;
    },
  };
}

describe('the OpenAPI document describes what the server answers', () => {
  it('validates the responses of the main routes, problems included', async () => {
    const { agent } = createPaymentAgent({ approval: true, repeatAfterRun: true });
    const server = await startTestServer({ agent });
    running.push(server);
    const alice = api(server.url, 'alice');
    const document = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    const { check } = createConformanceCheck(document);
    const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
      alice(path, { method: 'POST', json, headers });

    // A new thread, then a message that waits for the flow's confirmation, then one that waits for approval.
    const created = (await check(
      'post',
      '/v1/threads',
      await post('/v1/threads', { text: 'charge 30' }),
    )) as {
      threadId: string;
    };
    const message = '/v1/threads/{threadId}/messages';
    await check(
      'post',
      message,
      await post('/v1/threads/t-main/messages', { text: 'charge 30' }, { 'Idempotency-Key': 'k' }),
    );
    const suspended = (await check(
      'post',
      message,
      await post('/v1/threads/t-main/messages', { text: 'yes' }),
    )) as {
      suspensions: Array<{ id: string }>;
    };
    expect(suspended.suspensions).toHaveLength(1);
    const thread = (await check('get', '/v1/threads/{threadId}', await alice('/v1/threads/t-main'))) as {
      suspensions: Array<{ suspensionId: string }>;
    };
    expect(thread.suspensions.map((s) => s.suspensionId)).toEqual([suspended.suspensions[0]?.id]);
    await check('get', '/v1/threads', await alice('/v1/threads'));
    await check('get', '/v1/threads/{threadId}/observations', await alice('/v1/threads/t-main/observations'));
    const answer = '/v1/threads/{threadId}/suspensions/{suspensionId}';
    await check(
      'post',
      answer,
      await post(`/v1/threads/t-main/suspensions/${suspended.suspensions[0]?.id}`, {
        feedback: { decision: 'approve' },
      }),
    );
    await check('get', '/v1/threads/{threadId}', await alice('/v1/threads/t-main'));
    await check('get', '/v1/threads/{threadId}', await alice(`/v1/threads/${created.threadId}`));
    await check('get', '/v1/audit', await alice('/v1/audit'));
    await check('get', '/v1/audit', await alice('/v1/audit?threadId=t-main'));
    await check('post', '/v1/threads/{threadId}/cancel', await post('/v1/threads/t-main/cancel', {}));
    // The same request again, and a reused key.
    await check(
      'post',
      message,
      await post('/v1/threads/t-main/messages', { text: 'charge 30' }, { 'Idempotency-Key': 'k' }),
    );
    await check(
      'post',
      message,
      await post('/v1/threads/t-main/messages', { text: 'charge 31' }, { 'Idempotency-Key': 'k' }),
    );
    // A respond-async turn.
    await check(
      'post',
      message,
      await alice('/v1/threads/t-async/messages', {
        method: 'POST',
        json: { text: 'charge 5' },
        headers: { prefer: 'respond-async' },
      }),
    );

    // Problems.
    await check('get', '/v1/threads/{threadId}', await alice('/v1/threads/nobody-here'));
    await check('get', '/v1/threads/{threadId}', await alice('/v1/threads/bad%20id'));
    await check('post', message, await post('/v1/threads/t-main/messages', { text: '' }));
    await check(
      'post',
      answer,
      await post('/v1/threads/t-main/suspensions/susp_unknown', { feedback: { decision: 'approve' } }),
    );
    await check('get', '/v1/threads', await fetch(`${server.url}/v1/threads`));
    await check('get', '/v1/audit', await alice('/v1/audit?limit=0'));
  });
});
