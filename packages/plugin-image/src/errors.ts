/** The error codes `@tool-search/plugin-image` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const ImageErrors = defineErrors('@tool-search/plugin-image', {
  IMAGE_UNREADABLE:
    '`image`: the file is not a PNG, JPEG, GIF or WebP image, or is larger than the limit (`details.rule`).',
  IMAGE_TOO_LARGE:
    '`image`: the image declares more pixels than the plugin sends (`details.rule`: `maxPixels`, raised with the `maxPixels` option).',
});
