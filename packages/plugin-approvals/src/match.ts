/**
 * Does a tool need approval, and why. Patterns use the policy matcher
 * (`@tool-search/tool-match` `firstMatch`, shared with the policy), so `require` reads exactly like an
 * allow or deny list.
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import { firstMatch } from '@tool-search/tool-match';
import type { ResolvedApprovalsConfig } from './config.js';

/** The reason approval is required, or `undefined` when the tool may run without one. */
export function approvalReason(tool: ToolDescriptor, config: ResolvedApprovalsConfig): string | undefined {
  const entry = firstMatch(config.require, tool);
  if (entry !== undefined) return `matches tools.approvals.require entry "${entry}"`;
  // Only an explicit `true`: MCP's implicit default (destructive unless read-only) would gate nearly every tool.
  if (config.requireDestructive && tool.annotations?.destructiveHint === true)
    return 'the tool is annotated destructiveHint: true';
  return undefined;
}
