import { ErrorCode, KERNEL_ERROR_CODES } from './errors.js';

/**
 * Codes a package owns. The kernel keeps only its own codes in `ErrorCode`; a plugin declares the codes it raises
 * in its own package with `defineErrors(owner, { CODE: 'what it means' })`, as Rollup lets a plugin raise its own
 * code and Fastify keeps only core codes in `lib/errors.js`. The returned constants are string literals branded so
 * that `new ToolSearchError(code, …)` accepts declared codes only, never a typo.
 */
declare const owned: unique symbol;
export type OwnedErrorCode<K extends string = string> = K & { readonly [owned]: true };
/** Every code a `ToolSearchError` may carry: the kernel's and those packages declared. */
export type AnyErrorCode = ErrorCode | OwnedErrorCode;

export interface ErrorCodeInfo {
  readonly code: string;
  /** The npm name of the package that declared it (`@tool-search/kernel` for the kernel's own). */
  readonly owner: string;
  readonly description: string;
}

export const KERNEL_OWNER = '@tool-search/kernel';

// One registry per process, shared by every copy of the kernel a process loads (a plugin may bring its own).
const REGISTRY_KEY = Symbol.for('@tool-search/kernel/error-registry');
function registry(): Map<string, ErrorCodeInfo> {
  const holder = globalThis as { [REGISTRY_KEY]?: Map<string, ErrorCodeInfo> };
  return (holder[REGISTRY_KEY] ??= new Map());
}

export class ErrorCodeTakenError extends Error {
  constructor(code: string, owner: string, takenBy: string) {
    super(
      `${owner} declares error code ${code}, which ${takenBy} already owns; pick a name prefixed with your package's subject`,
    );
    this.name = 'ErrorCodeTakenError';
  }
}

/**
 * Declares the error codes a package raises. Codes are global strings (a log line or JSON result names them without
 * a lookup), so a code owned by the kernel or another package is refused at load time. Declaring the same code again
 * from the same owner is allowed: a package may be loaded twice (sources in tests, dist at run time).
 */
export function defineErrors<const C extends Record<string, string>>(
  owner: string,
  codes: C,
): { readonly [K in keyof C & string]: OwnedErrorCode<K> } {
  const known = registry();
  for (const [code, description] of Object.entries(codes)) {
    if (code in ErrorCode) throw new ErrorCodeTakenError(code, owner, KERNEL_OWNER);
    const existing = known.get(code);
    if (existing && existing.owner !== owner) throw new ErrorCodeTakenError(code, owner, existing.owner);
    known.set(code, { code, owner, description });
  }
  return Object.freeze(Object.fromEntries(Object.keys(codes).map((code) => [code, code]))) as never;
}

/**
 * Every code known in this process: the kernel's (in declaration order), then each declared one, sorted by owner and
 * code. A package's codes are known once its module has loaded (its index exports its `errors.ts`).
 */
export function listErrorCodes(): ErrorCodeInfo[] {
  const kernel = Object.entries(KERNEL_ERROR_CODES).map(([code, description]) => ({
    code,
    owner: KERNEL_OWNER,
    description,
  }));
  const declared = [...registry().values()].sort(
    (a, b) => a.owner.localeCompare(b.owner) || a.code.localeCompare(b.code),
  );
  return [...kernel, ...declared];
}
