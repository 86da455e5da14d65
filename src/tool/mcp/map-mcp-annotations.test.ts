import { describe, expect, it } from 'vitest';
import { mapMcpAnnotations } from './map-mcp-annotations.js';

const source = { accessesPrivateData: true, approval: 'destructive' as const };

describe('mapMcpAnnotations', () => {
  it('takes the MCP defaults for missing hints: not read-only, destructive, not idempotent, open world', () => {
    expect(mapMcpAnnotations(undefined, source)).toEqual({
      idempotent: false,
      parallel: false,
      capability: 'restricted',
      accessesPrivateData: true,
      receivesUntrustedInput: true,
      communicatesExternally: true,
      requiresApproval: true,
    });
    expect(mapMcpAnnotations({}, source)).toEqual(mapMcpAnnotations(undefined, source));
  });

  it('maps a closed-world read-only tool to a safe, idempotent, parallel one', () => {
    expect(mapMcpAnnotations({ readOnlyHint: true, openWorldHint: false }, source)).toMatchObject({
      idempotent: true,
      parallel: true,
      capability: 'safe',
      receivesUntrustedInput: false,
      communicatesExternally: false,
      requiresApproval: false,
    });
  });

  it('ignores destructive and idempotent hints on a read-only tool', () => {
    expect(
      mapMcpAnnotations({ readOnlyHint: true, destructiveHint: true, idempotentHint: false }, source),
    ).toMatchObject({
      idempotent: true,
      requiresApproval: false,
      capability: 'controlled', // read-only but open-world by default
    });
  });

  it('maps an additive write to controlled without approval, a destructive one to restricted with it', () => {
    expect(
      mapMcpAnnotations({ readOnlyHint: false, destructiveHint: false, openWorldHint: false }, source),
    ).toMatchObject({
      capability: 'controlled',
      requiresApproval: false,
      idempotent: false,
    });
    expect(
      mapMcpAnnotations(
        { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
        source,
      ),
    ).toMatchObject({ capability: 'restricted', requiresApproval: true, idempotent: true });
  });

  it('follows the source approval policy and private-data tag', () => {
    const readOnly = { readOnlyHint: true, openWorldHint: false };
    expect(mapMcpAnnotations(readOnly, { accessesPrivateData: false, approval: 'always' })).toMatchObject({
      requiresApproval: true,
      accessesPrivateData: false,
    });
    expect(
      mapMcpAnnotations(undefined, { accessesPrivateData: true, approval: 'never' }).requiresApproval,
    ).toBe(false);
  });
});
