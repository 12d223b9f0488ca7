/** The codes `@tool-search/plugin-llm-task` raises. */
import { defineErrors } from '@tool-search/kernel/errors';

export const LlmTaskErrors = defineErrors('@tool-search/plugin-llm-task', {
  LLM_TASK_INVALID_OUTPUT:
    'The model answered with no valid JSON (or JSON that breaks the schema) twice: the first answer and one retry.',
  LLM_TASK_SCHEMA_INVALID: 'The schema given to llm-task is not a valid JSON Schema.',
  LLM_TASK_PROVIDER_FAILED: 'The configured provider did not answer.',
});
