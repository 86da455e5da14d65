import { errorResult, type ToolStage } from '../tool-pipeline.js';

/** Most argument text a call may carry; larger arguments are refused before parsing. */
export const maxArgumentChars = 256 * 1024;

/**
 * Parses the model's argument text as a JSON object. Empty text means `{}` (models send it for tools
 * without parameters); anything else that is not an object is a validation error the model can fix.
 */
export const parseArguments: ToolStage = (state, next) => {
  const text = state.request.input.trim();
  if (text.length > maxArgumentChars) {
    return Promise.resolve(
      errorResult(
        state,
        'validation_error',
        `Arguments are ${text.length} characters; at most ${maxArgumentChars} are accepted.`,
      ),
    );
  }
  if (text === '') return next({ ...state, input: {} });
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    return Promise.resolve(
      errorResult(
        state,
        'validation_error',
        `Arguments are not valid JSON (${(error as Error).message}). Send a JSON object.`,
      ),
    );
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return Promise.resolve(errorResult(state, 'validation_error', 'Arguments must be a JSON object.'));
  }
  return next({ ...state, input });
};
