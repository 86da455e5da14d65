import { describe, expect, it } from 'vitest';
import { callSignature, recordCall } from './detect-repeated-call.js';

describe('loop detection', () => {
  it('sees the same call through key order and whitespace', () => {
    expect(callSignature('get_rate', '{"from":"EUR","to":"NOK"}')).toBe(
      callSignature('get_rate', ' { "to": "NOK",\n "from": "EUR" } '),
    );
    expect(callSignature('get_rate', '')).toBe(callSignature('get_rate', '{}'));
  });

  it('tells different tools, different arguments and unparseable text apart', () => {
    const a = callSignature('get_rate', '{"from":"EUR","to":"NOK"}');
    expect(callSignature('get_rate', '{"from":"EUR","to":"SEK"}')).not.toBe(a);
    expect(callSignature('lookup_rate_table', '{"from":"EUR","to":"NOK"}')).not.toBe(a);
    expect(callSignature('get_rate', 'from=EUR')).toBe(callSignature('get_rate', 'from=EUR'));
  });

  it('flags the call that reaches the limit of identical calls, and never before', () => {
    let counts: Record<string, number> = {};
    const flags: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const r = recordCall(counts, 'sig', 3);
      counts = r.counts;
      flags.push(r.repeated);
    }
    expect(flags).toEqual([false, false, true, true]);
    expect(recordCall({}, 'sig', 0).repeated).toBe(false);
  });
});
