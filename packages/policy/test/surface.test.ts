import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public surface', () => {
  it('exports exactly the documented runtime names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'CORE_GROUPS',
        'POLICY_PLUGIN',
        'PROFILES',
        'PolicyErrors',
        'SANDBOX_DEFAULTS',
        'SOURCE_GROUPS',
        'evaluatePolicy',
        'expandGroups',
        'firstMatch',
        'isProfileName',
        'isReservedGroup',
        'matchesEntry',
        'parsePolicyOptions',
        'policyOptionsSchema',
        'policyPlugin',
        'providerCandidates',
        'resolvePolicy',
      ].sort(),
    );
  });

  it('keeps its tables frozen so no caller can widen a profile or group', () => {
    expect(Object.isFrozen(api.PROFILES.coding)).toBe(true);
    expect(Object.isFrozen(api.CORE_GROUPS['group:fs'])).toBe(true);
    expect(Object.isFrozen(api.SANDBOX_DEFAULTS.allow)).toBe(true);
  });
});
