import { describe, expect, it } from 'vitest';
import { readYesNo } from './read-yes-no.js';

describe('readYesNo: only a clear answer counts', () => {
  it.each(['yes', 'Yes.', 'y', 'ok', 'yes, go ahead', 'Sure, please!', 'ok do it', 'yes please', 'approve'])(
    '%j is a yes',
    (text) => {
      expect(readYesNo(text)).toEqual({ answer: 'yes' });
    },
  );

  it.each([
    'ok, but first tell me what table b holds',
    'Yes? what would that delete?',
    'Sure thing is that I do not want this',
    'yes but only the first one',
    'ok so what is in table b',
    'No idea, can you check?',
    'no idea',
    'no, but ask me tomorrow',
    'no? why',
  ])('%j is not an answer: unclear', (text) => {
    expect(readYesNo(text)).toEqual({ answer: 'unclear' });
  });

  it('a no may carry its reason, in the words the person wrote', () => {
    expect(readYesNo('no')).toEqual({ answer: 'no' });
    expect(readYesNo('No, too expensive')).toEqual({ answer: 'no', reason: 'too expensive' });
    expect(readYesNo('no - Eve is not a supplier')).toEqual({
      answer: 'no',
      reason: 'Eve is not a supplier',
    });
    expect(readYesNo('nope because it is late')).toEqual({ answer: 'no', reason: 'it is late' });
    expect(readYesNo("don't send it")).toEqual({ answer: 'no' });
  });

  it('names which waiting question it answers', () => {
    expect(readYesNo('yes to 2')).toEqual({ answer: 'yes', target: 2 });
    expect(readYesNo('yes to all')).toEqual({ answer: 'yes', target: 'all' });
    expect(readYesNo('no to 1, wrong table')).toEqual({ answer: 'no', target: 1, reason: 'wrong table' });
  });

  it('a message that does not start like an answer is none', () => {
    expect(readYesNo('what is in table b?')).toBeUndefined();
    expect(readYesNo('Nobody asked')).toBeUndefined();
    expect(readYesNo('')).toBeUndefined();
  });
});
