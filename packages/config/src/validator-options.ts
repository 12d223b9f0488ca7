/** Ajv's options for the config schema: shared by the runtime compile (`validate.ts`) and the build's precompile. */
export const VALIDATOR_OPTIONS = Object.freeze({ allErrors: true, strict: true, verbose: true });
