/**
 * Property test: for random policies over random catalogs, nothing outside the
 * effective catalog is callable (by name or id), explain agrees with the
 * catalog, every tool a deny entry matches is absent, and a profile bounds
 * the catalog. Definitions are shared across runs so the kernel's schema
 * cache keeps this fast.
 */
import {
  createKernel,
  ErrorCode,
  ToolSearchError,
  type KernelPlugin,
  type RunRequest,
  type ToolDefinition,
} from '@tool-search/kernel';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CORE_GROUPS,
  matchesEntry,
  policyPlugin,
  PROFILES,
  type MatchableTool,
  type PolicyOptions,
  type ProfileName,
} from '../src/index.js';
import { definitions, INVENTORY } from './fixtures.js';

const executed: string[] = [];
const UNIVERSE: ToolDefinition[] = definitions(
  {
    core: INVENTORY,
    plugins: {
      alpha: ['alpha_tool', 'read', { name: 'shared', groups: ['group:chat'] }],
      beta: [{ name: 'web_lookup', groups: ['group:fs', 'group:x'] }, 'exec'],
      lobster: [{ name: 'slack', groups: ['group:chat'] }],
    },
    mcp: { github: ['create_issue', 'read', 'search'], notion: ['search', 'exec'] },
  },
  executed,
);

const NAMES = [...new Set(UNIVERSE.map((d) => d.name))];
const ENTRY = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(
    ...Object.keys(CORE_GROUPS),
    'group:openclaw',
    'group:plugins',
    'group:mcp',
    'group:chat',
    'group:x',
    'group:none',
  ),
  fc.constantFrom(
    '*',
    'web_*',
    '*_issue',
    'mcp:github:*',
    'mcp:notion:*',
    'core:core:read',
    'plugin:alpha:*',
    'alpha',
    'lobster',
    'READ',
    'Exec',
    'not_loaded',
  ),
);
const LIST = fc.array(ENTRY, { minLength: 1, maxLength: 4 });
const PROFILE = fc.constantFrom<ProfileName>('minimal', 'coding', 'messaging', 'full');

/** Present in about one run of `1 + absent`, so most runs keep enough tools to be interesting. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, absent = 2): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: absent }, { arbitrary, weight: 1 });
}

/** A record without the keys whose value came out undefined. */
function partial<T>(
  model: { [K in keyof T]: fc.Arbitrary<T[K]> },
): fc.Arbitrary<{ [K in keyof T]?: Exclude<T[K], undefined> }> {
  return fc.record(model).map(
    (value) =>
      Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
        [K in keyof T]?: Exclude<T[K], undefined>;
      },
  );
}

const ALLOW_DENY = partial({ allow: sometimes(LIST, 1), deny: sometimes(LIST, 1) });
const SCOPE = partial({ profile: sometimes(PROFILE), allow: sometimes(LIST), deny: sometimes(LIST, 1) });
const BY_PROVIDER = fc.dictionary(fc.constantFrom('openai', 'openai/gpt-5.2', 'anthropic', 'anthropic/claude'), SCOPE, {
  maxKeys: 3,
});
const TOOLS = partial({
  profile: sometimes(PROFILE),
  allow: sometimes(LIST, 3),
  deny: sometimes(LIST, 1),
  byProvider: sometimes(BY_PROVIDER, 1),
  sandbox: sometimes(partial({ tools: sometimes(ALLOW_DENY, 1) })),
});
const AGENTS = fc
  .uniqueArray(partial({ id: fc.constantFrom('a', 'b'), tools: sometimes(TOOLS, 1) }), {
    selector: (a) => a.id,
    maxLength: 2,
  })
  .map((list) => list.map((agent) => ({ ...agent, id: agent.id! })));
const OPTIONS: fc.Arbitrary<PolicyOptions> = partial({
  tools: sometimes(TOOLS, 1),
  agents: sometimes(fc.record({ list: AGENTS }), 1),
});
const REQUEST: fc.Arbitrary<RunRequest> = partial({
  agentId: sometimes(fc.constantFrom('a', 'b', 'c'), 1),
  provider: fc.oneof(
    { arbitrary: fc.constantFrom('openai', 'anthropic'), weight: 3 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  ),
  model: sometimes(fc.constantFrom('gpt-5.2', 'claude', 'other'), 1),
  sandboxed: sometimes(fc.constant(true)),
});
const CATALOG = fc.subarray(UNIVERSE, { minLength: 1 });

const SANDBOX_DENY = ['group:ui', 'nodes', 'group:automation', 'group:messaging'];

function source(tools: readonly ToolDefinition[]): KernelPlugin {
  return { name: 'fuzz-source', apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(tools)) };
}

/** The deny lists that apply to a run, worked out independently of resolve.ts. */
function applicableDenies(options: PolicyOptions, request: RunRequest): string[] {
  const agent = options.agents?.list?.find((a) => a.id === request.agentId);
  const full = request.provider && request.model ? `${request.provider}/${request.model}` : undefined;
  const pick = (map: Record<string, { deny?: readonly string[] }> | undefined) =>
    map ? (full && map[full] ? map[full] : request.provider ? map[request.provider] : undefined) : undefined;
  const denies = [...(options.tools?.deny ?? []), ...(agent?.tools?.deny ?? [])];
  denies.push(...(pick(options.tools?.byProvider)?.deny ?? []), ...(pick(agent?.tools?.byProvider)?.deny ?? []));
  if (request.sandboxed) {
    const sandbox = agent?.tools?.sandbox?.tools ?? options.tools?.sandbox?.tools;
    denies.push(...(sandbox?.deny ?? SANDBOX_DENY));
  }
  return denies;
}

function effectiveProfile(options: PolicyOptions, request: RunRequest): ProfileName | undefined {
  const agent = options.agents?.list?.find((a) => a.id === request.agentId);
  return agent?.tools?.profile ?? options.tools?.profile;
}

async function isUnknownTool(promise: Promise<unknown>): Promise<boolean> {
  try {
    await promise;
    return false;
  } catch (error) {
    return ToolSearchError.isInstance(error) && error.code === ErrorCode.UNKNOWN_TOOL;
  }
}

describe('policy fuzz', () => {
  it('never lets a tool outside the effective catalog be called, and deny always wins', async () => {
    await fc.assert(
      fc.asyncProperty(CATALOG, OPTIONS, REQUEST, async (tools, options, request) => {
        const kernel = createKernel({ plugins: [source(tools), policyPlugin(options)] });
        if (request.agentId !== undefined && !options.agents?.list?.some((a) => a.id === request.agentId)) {
          // An agent id that names no agent is refused, never given the global policy.
          await expect(kernel.createRun(request)).rejects.toMatchObject({ code: ErrorCode.AGENT_UNKNOWN });
          await kernel.close();
          return;
        }
        const run = await kernel.createRun(request);
        const inCatalog = new Set(run.catalog.map((t) => t.id));
        const listed: readonly MatchableTool[] = run.listed;

        for (const tool of listed) {
          expect(run.explain(tool.id).inCatalog).toBe(inCatalog.has(tool.id));
          const byNameExplained = run.explain(tool.name);
          expect(byNameExplained.inCatalog).toBe(inCatalog.has(byNameExplained.toolId!));
          if (inCatalog.has(tool.id)) continue;
          expect(await isUnknownTool(run.call(tool.id, {}))).toBe(true);
          executed.length = 0;
          const byName = await run.call(tool.name, {}).catch((error: unknown) => error);
          if (ToolSearchError.isInstance(byName)) {
            expect(byName.code).toBe(ErrorCode.UNKNOWN_TOOL);
          } else {
            expect(byName).toMatchObject({ status: 'ok' });
            expect(inCatalog.has((byName as { toolId: string }).toolId)).toBe(true);
            expect(executed.every((id) => inCatalog.has(id))).toBe(true);
          }
        }

        for (const entry of applicableDenies(options, request)) {
          for (const tool of listed) if (matchesEntry(entry, tool)) expect(inCatalog.has(tool.id)).toBe(false);
        }

        // With a profile, every kept tool is in the profile or in a list that adds to it.
        const profile = effectiveProfile(options, request);
        const agent = options.agents?.list?.find((a) => a.id === request.agentId);
        const additions = [options.tools, agent?.tools].flatMap((scope) => [
          ...(scope?.allow ?? []),
          ...(scope?.alsoAllow ?? []),
        ]);
        if (profile)
          for (const tool of run.catalog)
            expect([...PROFILES[profile], ...additions].some((entry) => matchesEntry(entry, tool, 'allow'))).toBe(true);
        await kernel.close();
      }),
      { numRuns: 800 },
    );
  });
});
