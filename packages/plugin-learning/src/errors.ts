/** The error codes `@tool-search/plugin-learning` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const LearningErrors = defineErrors('@tool-search/plugin-learning', {
  LEARNING_UNAVAILABLE:
    'The learning store could not be read or written: searches rank without the learned signal until it answers again.',
});
