/**
 * `@opentelemetry/api` loads with the first turn that reports (or the first use of a meter), not when
 * flowstack is imported: a serverless function's cold start pays for every module it loads before its
 * first request (docs/decisions/0084-a-bundled-build-and-ajv-on-first-use.md). The API is published as
 * CommonJS, so this is the same module an application's own `import` gets, with the tracer and meter
 * providers it registered.
 */
import { createRequire } from 'node:module';

export type OpenTelemetryApi = typeof import('@opentelemetry/api');

let api: OpenTelemetryApi | undefined;

/** The OpenTelemetry API, loaded on the first call. */
export function openTelemetry(): OpenTelemetryApi {
  api ??= createRequire(import.meta.url)('@opentelemetry/api') as OpenTelemetryApi;
  return api;
}
