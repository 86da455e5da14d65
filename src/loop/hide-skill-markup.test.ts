import { describe, expect, it } from 'vitest';
import { createSkillMarkupFilter } from './hide-skill-markup.js';

function shown(deltas: string[]): string {
  const filter = createSkillMarkupFilter();
  return deltas.map((d) => filter.push(d)).join('') + filter.end();
}

describe('createSkillMarkupFilter', () => {
  it('lets prose through and hides calls and parallel tags, even split across deltas', () => {
    expect(
      shown([
        'Checking both.<par',
        'allel><sk',
        'ill>price(coin="BTC")</sk',
        'ill><skill>price(coin="ETH")</skill></parallel> Done.',
      ]),
    ).toBe('Checking both. Done.');
  });

  it('holds back a piece that could become a tag, and releases it when it does not', () => {
    const filter = createSkillMarkupFilter();
    expect(filter.push('a <sk')).toBe('a ');
    expect(filter.push('y')).toBe('<sky');
    expect(filter.push(' 1 < 2 <s')).toBe(' 1 < 2 ');
    expect(filter.end()).toBe('<s');
  });

  it('shows nothing of a call cut off by the end of the answer', () => {
    expect(shown(['Looking. <skill>price(coin="B'])).toBe('Looking. ');
  });
});
