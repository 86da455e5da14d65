import { FlowstackError } from '../errors/index.js';

/** What a scripted model or test server was asked when no step matched. */
export interface ScriptExhaustedErrorOptions {
  /** Who was asked, e.g. `scripted model "scripted-model"`. */
  source: string;
  /** 1-based number of the call that found no step. */
  callNumber: number;
  phase?: string;
  flow?: string;
  lastUser?: string;
  toolNames: string[];
  /** One line per step that could still answer (see `describeStep`), in script order. */
  pendingSteps: string[];
  totalSteps: number;
}

const lastUserLimit = 160;

/**
 * A scripted model (or the OpenAI-compatible test server) was called and no remaining step matches.
 * The message says what was asked (phase, flow, last user message, tools offered) and which steps
 * are left with their matchers, so that a failing test shows at once which side is wrong.
 */
export class ScriptExhaustedError extends FlowstackError {
  readonly callNumber: number;
  readonly phase: string | undefined;
  readonly flow: string | undefined;
  readonly lastUser: string | undefined;
  readonly toolNames: string[];
  readonly pendingSteps: string[];

  constructor(options: ScriptExhaustedErrorOptions) {
    super({ name: 'ScriptExhaustedError', code: 'script_exhausted', message: formatMessage(options) });
    this.callNumber = options.callNumber;
    this.phase = options.phase;
    this.flow = options.flow;
    this.lastUser = options.lastUser;
    this.toolNames = options.toolNames;
    this.pendingSteps = options.pendingSteps;
  }

  override toJSON() {
    return {
      ...super.toJSON(),
      callNumber: this.callNumber,
      phase: this.phase,
      flow: this.flow,
      lastUser: this.lastUser,
      toolNames: this.toolNames,
      pendingSteps: this.pendingSteps,
    };
  }
}

function formatMessage(options: ScriptExhaustedErrorOptions): string {
  const { pendingSteps, totalSteps } = options;
  const left =
    pendingSteps.length === 0
      ? `all ${totalSteps} steps are used up`
      : `${pendingSteps.length} of ${totalSteps} steps left, none matches:\n    ${pendingSteps.join('\n    ')}`;
  return [
    `No script step matches call #${options.callNumber} to ${options.source}.`,
    `  phase: ${options.phase ?? '(none)'}`,
    `  flow: ${options.flow ?? '(none)'}`,
    `  last user: ${options.lastUser === undefined ? '(none)' : JSON.stringify(truncate(options.lastUser))}`,
    `  tools offered: ${options.toolNames.length === 0 ? '(none)' : options.toolNames.join(', ')}`,
    `  ${left}`,
  ].join('\n');
}

function truncate(text: string): string {
  return text.length <= lastUserLimit ? text : `${text.slice(0, lastUserLimit)}…`;
}
