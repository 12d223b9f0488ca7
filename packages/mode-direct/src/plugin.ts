/**
 * `directModeTextPlugin`: the second channel of OpenClaw's Tools document for the `direct` exposure. Tools reach the
 * model as schemas and as a readable list with guidance in the system prompt; the kernel's built-in direct mode sends
 * the schemas, this adds the list: each exposed tool's name and the first sentence of its description (sanitized:
 * descriptions come from plugins and MCP servers), within `budgetChars`; the kernel appends the sources' guidance for
 * the exposed tools (bounded by its own budget). Past the budget the list ends with how many tools it left out
 * (their schemas still carry them).
 */
import { STAGE, type KernelPlugin } from '@tool-search/kernel';
import { sanitizeUntrustedText } from '@tool-search/search';
import { DIRECT_MODE_TEXT_PLUGIN, parseDirectOptions, type DirectModeTextOptions } from './options.js';

export const DIRECT_MODE_HEADER = 'Tools available in this conversation (each is also declared with its full schema):';
/** Characters of one tool's line at most. */
const LINE_CHARS = 200;

export function directModeTextPlugin(options: DirectModeTextOptions = {}): KernelPlugin {
  const budget = parseDirectOptions(options).budgetChars;
  return {
    name: DIRECT_MODE_TEXT_PLUGIN,
    apply({ hooks }) {
      // After the kernel's direct mode has put the schemas in: the list names what is exposed, under the exposed names.
      hooks.materialize.for('direct').tap({ stage: STAGE.FINAL }, (draft) => {
        if (!budget || !draft.tools.length) return draft;
        // The kernel adds the sources' guidance for exposed tools after every mode: the list comes first.
        draft.system.unshift(renderList(draft.tools, budget));
        return draft;
      });
    },
  };
}

/** The header, then `- name: first sentence` lines while they fit; a last line counts the tools left out. */
export function renderList(tools: readonly { name: string; description?: string }[], budget: number): string {
  const lines = [DIRECT_MODE_HEADER];
  let used = DIRECT_MODE_HEADER.length;
  for (const [i, tool] of tools.entries()) {
    const summary = firstSentence(sanitizeUntrustedText(tool.description ?? '', LINE_CHARS));
    const line = `- ${sanitizeUntrustedText(tool.name, 100)}${summary ? `: ${summary}` : ''}`.slice(0, LINE_CHARS);
    const rest = tools.length - i;
    // Keep room for the "more tools" line whenever something may be left out.
    const reserve = rest > 1 ? 60 : 0;
    if (used + 1 + line.length + reserve > budget) {
      const more = `- … and ${rest} more tool${rest === 1 ? '' : 's'} (see their schemas)`;
      if (used + 1 + more.length <= budget) lines.push(more);
      break;
    }
    lines.push(line);
    used += 1 + line.length;
  }
  return lines.join('\n').slice(0, budget);
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  return end >= 0 ? flat.slice(0, end + 1) : flat;
}
