/**
 * The capability gate's judgement of one call, as a pure function of the tool, the tools offered with
 * it and the run's taint (seed 000 lethal-trifecta gate, seed 003 capability levels). Computed once per
 * call and kept on its state: the audit stage records the risk, the gate acts on the rest.
 */
import {
  type ApprovalGround,
  type CapabilityLevel,
  capabilityLevels,
  type ToolSpec,
} from '../../spec/index.js';
import type { CallAssessment, RiskLevel } from '../call-assessment.js';
import type { TaintState } from '../tool-batch-context.js';
import type { ToolCallState } from '../tool-call-state.js';
import type { ToolSet } from '../tool-definition.js';

export type { CallAssessment, RiskLevel } from '../call-assessment.js';

const risks: readonly RiskLevel[] = ['low', 'medium', 'high', 'critical'];
const coverage = new WeakMap<ToolSet, boolean>();

/** The assessment of the state's call, computed on first use. */
export function assessmentOf(state: ToolCallState): CallAssessment {
  if (state.assessment) return state.assessment;
  const tool = state.tool;
  const assessment: CallAssessment = tool
    ? assessCall(tool, state)
    : { approvalReasons: [], grounds: [], risk: 'low' };
  state.assessment = assessment;
  return assessment;
}

/** Why a call of each level waits for a person, as the person reads it in the approval prompt. */
const levelInWords: Record<string, string> = {
  safe: 'it only reads',
  controlled: 'it changes something',
  restricted: 'it commits you to something',
  privileged: 'it has wide powers over the system',
};

function assessCall(tool: ToolSpec, state: ToolCallState): CallAssessment {
  const { capabilities, taint, tools } = state.batch;
  const level = rankOf(tool.capability);
  const reasons: string[] = [];
  const grounds: ApprovalGround[] = [];
  const because = (ground: ApprovalGround, reason: string) => {
    grounds.push(ground);
    reasons.push(reason);
  };
  let refusal: string | undefined;
  if (capabilities?.maxLevel !== undefined && level > rankOf(capabilities.maxLevel))
    refusal = `'${tool.name}' is a ${tool.capability} tool; this run allows tools up to ${capabilities.maxLevel}.`;
  if (tool.requiresApproval) because('tool', `'${tool.name}' always needs approval`);
  if (capabilities?.approvalFrom !== undefined && level >= rankOf(capabilities.approvalFrom))
    because('level', `It waits for your yes: ${levelInWords[tool.capability] ?? 'it acts for you'}.`);
  let trifecta = false;
  if (hasTrifecta(tool)) {
    trifecta = true;
    because(
      'trifecta-tool',
      `lethal trifecta: '${tool.name}' reads private data, receives untrusted input and communicates externally`,
    );
  } else if (tool.communicatesExternally && offeredSetHasTrifecta(tools)) {
    trifecta = true;
    because(
      'trifecta-offered',
      'lethal trifecta: the tools offered together read private data, receive untrusted input and communicate externally',
    );
  }
  if (tool.communicatesExternally && taint?.tainted) {
    trifecta = true;
    because('taint', `untrusted content from ${describeTaint(taint)} is in the context`);
  }
  const risk = risks[Math.min(risks.length - 1, level + (trifecta ? 1 : 0))] ?? 'critical';
  return { approvalReasons: reasons, grounds, risk, ...(refusal !== undefined ? { refusal } : {}) };
}

/**
 * Where the run's untrusted content came from, for the person asked to approve: each call that brought
 * it, and how content from an earlier turn still reaches the run.
 */
function describeTaint(taint: TaintState): string {
  const origins = taint.origins ?? [];
  if (origins.length === 0) return taint.sources.join(', ') || 'a tool';
  return origins
    .map((o) =>
      o.via === undefined
        ? `${o.tool} (call ${o.callId} in this run)`
        : `${o.tool} (call ${o.callId} of an earlier turn, ${o.turnId}, still in ${o.via})`,
    )
    .join('; ');
}

/** All three capability tags on one tool. */
export function hasTrifecta(tool: ToolSpec): boolean {
  return tool.accessesPrivateData && tool.receivesUntrustedInput && tool.communicatesExternally;
}

/** The tools offered to one run cover all three tags between them (cached per set). */
export function offeredSetHasTrifecta(tools: ToolSet): boolean {
  const hit = coverage.get(tools);
  if (hit !== undefined) return hit;
  let privateData = false;
  let untrusted = false;
  let external = false;
  for (const tool of tools.values()) {
    privateData ||= tool.accessesPrivateData;
    untrusted ||= tool.receivesUntrustedInput;
    external ||= tool.communicatesExternally;
  }
  const covered = privateData && untrusted && external;
  coverage.set(tools, covered);
  return covered;
}

function rankOf(level: CapabilityLevel): number {
  const rank = capabilityLevels.indexOf(level);
  return rank < 0 ? capabilityLevels.length - 1 : rank;
}
