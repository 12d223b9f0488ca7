/**
 * The demo catalog's example tools: what the README's headline example calls, so it runs on the demo as written
 * (`openclaw.tools.search("create a GitHub issue")`, then `call(id, { title, body })`).
 */
import type { CoreToolSpec } from './core-tools.js';

export interface DemoToolSpec {
  /** The owner the tool's id names (`plugin:<owner>:<name>`). */
  readonly owner: string;
  readonly tool: CoreToolSpec;
}

export const DEMO_TOOLS: readonly DemoToolSpec[] = [
  {
    owner: 'github',
    tool: {
      name: 'create_issue',
      description:
        "Create an issue in a GitHub repository, with a title and a Markdown body. Returns the new issue's number and URL.",
      inputSchema: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1, description: 'Issue title' },
          body: { type: 'string', description: 'Issue body (GitHub-flavoured Markdown)' },
          labels: { type: 'array', items: { type: 'string' }, description: 'Label names to add' },
        },
        required: ['title'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
  },
];
