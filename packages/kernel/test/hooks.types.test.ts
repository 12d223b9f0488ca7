// Type tests for hook payloads: they fail `npm run typecheck` (tsc) when a payload type drifts.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  CallDecision,
  CatalogSink,
  ExposureDraft,
  HookFacades,
  HookTapFn,
  KernelHooks,
  ListContext,
  MaterializeContext,
  PolicyContext,
  ToolCall,
  ToolDescriptor,
} from '@tool-search/kernel';

type MaterializeHook = ReturnType<KernelHooks['materialize']['for']>;

describe('hook payload types', () => {
  it('types each hook with its payload', () => {
    expectTypeOf<Parameters<HookTapFn<KernelHooks['listTools']>>>().toEqualTypeOf<
      [catalog: CatalogSink, ctx: ListContext]
    >();
    expectTypeOf<Parameters<HookTapFn<KernelHooks['filterPolicy']>>>().toEqualTypeOf<
      [tools: readonly ToolDescriptor[], ctx: PolicyContext]
    >();
    expectTypeOf<ReturnType<HookTapFn<KernelHooks['filterPolicy']>>>().toEqualTypeOf<readonly ToolDescriptor[]>();
    expectTypeOf<Parameters<HookTapFn<KernelHooks['beforeToolCall']>>[0]>().toEqualTypeOf<ToolCall>();
    expectTypeOf<ReturnType<HookTapFn<KernelHooks['beforeToolCall']>>>().toEqualTypeOf<CallDecision | undefined>();
    expectTypeOf<Parameters<HookTapFn<MaterializeHook>>>().toEqualTypeOf<
      [draft: ExposureDraft, ctx: MaterializeContext]
    >();
  });

  it('offers tapPromise only on async hooks', () => {
    expectTypeOf<'tapPromise' extends keyof HookFacades['filterPolicy'] ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<'tapPromise' extends keyof HookFacades['listTools'] ? true : false>().toEqualTypeOf<true>();
  });
});
