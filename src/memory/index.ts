export { composePrompt, describePreferences, type PromptBlocks } from './compose-prompt.js';
export {
  compileHistory,
  defaultHistoryTurns,
  type HistoryMessage,
  recentWindow,
} from './conversation-history.js';
export { resolvePreferences, setPreference } from './preferences.js';
export {
  defaultScratchpadSize,
  maxScratchpadTextChars,
  readScratchpad,
  type ScratchpadWrite,
  writeScratchpad,
} from './scratchpad.js';
