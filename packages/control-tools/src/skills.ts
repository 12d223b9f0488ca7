/**
 * Skills (source `skill`, an MCP server's SEP-2640 skills) in the control
 * tools: search hits of a skill say `kind: "skill"`, and describing a skill
 * reads its `SKILL.md` through the run (policy and `beforeToolCall` apply, as
 * to a call), so one describe gives the model the instructions it asked for.
 */
import { ErrorCode, type CallOrigin, type RunApi, type ToolResult } from '@tool-search/kernel';
import type { BatchSearchResult, SearchHit, SearchResult, ToolDescription } from '@tool-search/search';

/** What a search hit is: a tool, or a skill whose call reads its files. */
export type HitKind = 'tool' | 'skill';

export type KindedHit = SearchHit & { readonly kind?: 'skill' };

/** The hits of skills marked `kind: "skill"` (tools stay as they are: a hit without `kind` is a tool). */
export function withSkillKinds<R extends SearchResult | BatchSearchResult>(result: R): R {
  if ('results' in result) {
    const results = result.results.map(markSkills);
    return results.every((one, i) => one === result.results[i]) ? result : { ...result, results };
  }
  return markSkills(result as SearchResult) as R;
}

function markSkills(result: SearchResult): SearchResult {
  if (!result.hits.some((hit) => hit.source === 'skill')) return result;
  return { ...result, hits: result.hits.map((hit) => (hit.source === 'skill' ? { ...hit, kind: 'skill' } : hit)) };
}

/** A skill's `SKILL.md` as the run reads it; the error's text when the read failed or was blocked. */
export interface SkillText {
  readonly text?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** Reads a described skill's `SKILL.md`; undefined for anything that is not a skill. */
export async function readDescribedSkill(
  run: RunApi,
  description: ToolDescription,
  origin: CallOrigin,
  signal?: AbortSignal,
): Promise<SkillText | undefined> {
  if (description.source !== 'skill') return undefined;
  const outcome = await run.call(description.id, {}, { origin, ...(signal ? { signal } : {}) });
  if (outcome.status === 'ok') return { text: bounded(textOf(outcome.result), description.id) };
  if (outcome.status === 'blocked')
    return { error: { code: ErrorCode.TOOL_CALL_BLOCKED, message: `blocked by ${outcome.by}: ${outcome.reason}` } };
  if (outcome.status === 'error') return { error: outcome.error };
  return undefined;
}

function bounded(text: string, id: string): string {
  if (text.length <= MAX_DESCRIBED_SKILL_CHARS) return text;
  return `${text.slice(0, MAX_DESCRIBED_SKILL_CHARS)}\n[… cut at ${MAX_DESCRIBED_SKILL_CHARS} characters: call ${id} for all of it]`;
}

function textOf(result: ToolResult): string {
  return result.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Most of a `SKILL.md` a describe carries (a server's file may be megabytes); calling the skill returns all of it. */
export const MAX_DESCRIBED_SKILL_CHARS = 20_000;

/** The describe text of a skill: its description, then its `SKILL.md` (or why it could not be read). */
export function renderSkillText(skill: SkillText): string {
  if (skill.text === undefined) return `SKILL.md could not be read (${skill.error?.code}): ${skill.error?.message}`;
  return `SKILL.md:\n${skill.text}`;
}
