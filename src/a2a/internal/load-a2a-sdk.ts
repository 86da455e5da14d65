/**
 * The official A2A SDK (and the JSON Web Token library it brings) loads on first use — a delegation's
 * first connection, the A2A endpoint's first request — not with flowstack: most agents never speak A2A,
 * and a serverless start pays for every module loaded
 * (docs/decisions/0073-cold-start-loads-on-first-use.md). Code that runs only after such a first use
 * reads the loaded modules synchronously.
 */
import type * as A2ASdk from '@a2a-js/sdk';
import type * as A2AClientSdk from '@a2a-js/sdk/client';
import type * as A2AServerSdk from '@a2a-js/sdk/server';

let sdk: typeof A2ASdk | undefined;
let serverSdk: typeof A2AServerSdk | undefined;

/** The protocol's types and enums (`@a2a-js/sdk`). */
export async function loadA2ASdk(): Promise<typeof A2ASdk> {
  sdk ??= await import('@a2a-js/sdk');
  return sdk;
}

/** The client side (`@a2a-js/sdk/client`), with the protocol module. */
export async function loadA2AClientSdk(): Promise<typeof A2AClientSdk> {
  await loadA2ASdk();
  return import('@a2a-js/sdk/client');
}

/** The server side (`@a2a-js/sdk/server`), with the protocol module. */
export async function loadA2AServerSdk(): Promise<typeof A2AServerSdk> {
  await loadA2ASdk();
  serverSdk ??= await import('@a2a-js/sdk/server');
  return serverSdk;
}

/** The protocol module, for code that runs after a first use loaded it. */
export function a2aSdk(): typeof A2ASdk {
  if (!sdk) throw new Error('The A2A SDK was used before it was loaded (loadA2ASdk).');
  return sdk;
}

/** The server module, for code that runs after the endpoint loaded it. */
export function a2aServerSdk(): typeof A2AServerSdk {
  if (!serverSdk) throw new Error('The A2A server SDK was used before it was loaded (loadA2AServerSdk).');
  return serverSdk;
}
