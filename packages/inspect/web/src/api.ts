/** The page's view of the inspect API (the same JSON the server's src/types.ts describes). */
export interface Request {
  agent?: string;
  provider?: string;
  model?: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function get<T>(path: string, params: Record<string, string | undefined>): Promise<T> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const response = await fetch(`./api/${path}${query.size ? `?${query}` : ''}`, { headers: { accept: 'application/json' } });
  const body = (await response.json()) as T & { error?: { code: string; message: string } };
  if (!response.ok || body.error) throw new ApiError(body.error?.code ?? String(response.status), body.error?.message ?? response.statusText);
  return body;
}

export interface PolicyStep {
  step: string;
  kept: boolean;
  rule?: string;
  plugin?: string;
}
export interface Diagnostic {
  code: string;
  level: string;
  message: string;
  plugin?: string;
}
export interface Meta {
  agents: string[];
  providers: string[];
  modes: string[];
  defaults: { agentId?: string; provider?: string; model?: string };
  demoCatalog: boolean;
  sessions: { dir?: string; store: boolean };
}
export interface CatalogRow {
  id: string;
  name: string;
  source: string;
  server?: string;
  owner: string;
  catalogMode: string;
  status: 'allowed' | 'denied';
  deniedBy?: PolicyStep;
  /** A fake of the demo catalog: it does nothing. */
  demo?: true;
}
export interface SourceProblem {
  source: string;
  kind: string;
  code: string;
  level: string;
  message: string;
  fix?: string;
}
export interface Catalog {
  mode: string;
  tools: CatalogRow[];
  problems: SourceProblem[];
  diagnostics: Diagnostic[];
}
export interface ToolView {
  tool: CatalogRow & { title?: string; description: string; inputSchema: unknown; outputSchema?: unknown };
  guidance: string;
  explain: { requested: string; toolId?: string; known: boolean; inCatalog: boolean; steps: PolicyStep[] };
}
export interface Hit {
  id: string;
  name: string;
  source: string;
  owner: string;
  summary: string;
  input: string;
  weak?: true;
}
export interface ScorePart {
  field: string;
  weight: number;
  words: string[];
}
export interface Search {
  result: { query: string; hits: Hit[]; truncated: boolean; weak?: true; unavailable?: { name: string; state: string; code: string }[] };
  ranker: { id: string; version: string };
  parts: ScorePart[][];
  misses: string[];
  /** Per hit: a fake of the demo catalog. */
  demo?: boolean[];
}
export interface ExposureMode {
  mode: string;
  answered: string;
  tools: string[];
  system: string;
  bytes: { tools: number; system: number; total: number };
  tokens: { tools: number; system: number; total: number } | null;
  error?: { code: string; message: string };
}
export interface Exposure {
  applied: string;
  modes: ExposureMode[];
}
export interface SessionItem {
  id: string;
  origin: 'log' | 'store';
  updated: string;
  entries?: number;
  calls?: number;
  searches?: number;
  zeroHit?: number;
  status?: string;
}
export interface Entry {
  ts: string;
  type: string;
  runId: string;
  sessionId: string;
  [key: string]: unknown;
}
export interface Session {
  id: string;
  origin: 'log' | 'store';
  entries: Entry[];
  record?: { status: string; turns: number; model?: string; kind: string; agentId: string; lastError?: string };
  transcript?: { role: string; content: string | null; at: number; toolCalls?: string[]; tool?: { name: string; status: string } }[];
}
export interface LiveServer {
  name: string;
  state: string;
  transport?: string;
  protocolVersion?: string;
  toolCount?: number;
  error?: { code: string; message: string };
}
export interface Live {
  servers: LiveServer[];
  version: number;
}
