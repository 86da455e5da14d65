/**
 * `prepare()`: cheap checks on the user's message before anything else runs. A message that fails them
 * raises an `InputError` and leaves the thread untouched.
 */
import { InputError } from '../errors/index.js';

/** Default longest message accepted, in characters. */
export const defaultMaxInputChars = 32_000;

export function prepareInput(text: unknown, options: { maxChars?: number } = {}): string {
  const max = options.maxChars ?? defaultMaxInputChars;
  if (typeof text !== 'string')
    throw new InputError({ reason: 'invalid', message: 'The message must be text.' });
  // Control characters other than tab and newlines carry no meaning for the model.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const cleaned = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
  if (cleaned === '') throw new InputError({ reason: 'empty', message: 'The message is empty.' });
  if (cleaned.length > max) {
    throw new InputError({
      reason: 'too_long',
      message: `The message has ${cleaned.length} characters; at most ${max} are accepted. Send a shorter message or attach the content as a file.`,
    });
  }
  return cleaned;
}
