/**
 * Attribute names and values of the OpenTelemetry GenAI semantic conventions (semconv 1.37+, checked against the GenAI conventions repository in 2026), written
 * out here so that core depends on `@opentelemetry/api` only. flowstack's own attributes use the
 * `flowstack.` prefix.
 */
export const genAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  workflowName: 'gen_ai.workflow.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestTemperature: 'gen_ai.request.temperature',
  requestStream: 'gen_ai.request.stream',
  responseId: 'gen_ai.response.id',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  toolDefinitions: 'gen_ai.tool.definitions',
  tokenType: 'gen_ai.token.type',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolDescription: 'gen_ai.tool.description',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  /** Not GenAI's own: the session attribute Langfuse and Phoenix group traces by (the thread id). */
  sessionId: 'session.id',
} as const;

/** The GenAI client metrics (both histograms) and the bucket boundaries the conventions advise. */
export const genAiMetric = {
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
  tokenUsageBuckets: [
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
  ],
  durationBuckets: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92],
} as const;

export const genAiOperation = {
  chat: 'chat',
  executeTool: 'execute_tool',
  invokeAgent: 'invoke_agent',
  invokeWorkflow: 'invoke_workflow',
} as const;

/** flowstack's attributes on the same spans. */
export const flowstackAttribute = {
  turnId: 'flowstack.turn.id',
  turnStatus: 'flowstack.turn.status',
  principal: 'flowstack.principal',
  phase: 'flowstack.phase',
  flowName: 'flowstack.flow.name',
  flowId: 'flowstack.flow.id',
  flowOutcome: 'flowstack.flow.outcome',
  planId: 'flowstack.plan.id',
  planItemId: 'flowstack.plan.item.id',
  planItemDescription: 'flowstack.plan.item.description',
  planItemStatus: 'flowstack.plan.item.status',
  toolIdempotent: 'flowstack.tool.idempotent',
  toolCapability: 'flowstack.tool.capability',
  toolStatus: 'flowstack.tool.status',
} as const;

const knownProviders: Readonly<Record<string, string>> = {
  openai: 'openai',
  azure: 'azure.ai.openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
  'amazon-bedrock': 'aws.bedrock',
  bedrock: 'aws.bedrock',
  mistral: 'mistral_ai',
  groq: 'groq',
  deepseek: 'deepseek',
  xai: 'x_ai',
  cohere: 'cohere',
  perplexity: 'perplexity',
};

/**
 * The well-known `gen_ai.provider.name` for an AI SDK provider id (`openai.chat` → `openai`); an
 * unknown provider keeps its own id.
 */
export function genAiProviderName(provider: string): string {
  const dot = provider.indexOf('.');
  const base = dot < 0 ? provider : provider.slice(0, dot);
  return Object.hasOwn(knownProviders, base) ? (knownProviders[base] as string) : provider;
}
