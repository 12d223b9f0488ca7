/**
 * `act`: one interaction with the tab, elements named by the refs of the latest snapshot (`e12` or `12`).
 * Kinds as the Tools document lists them: click, type, press, hover, drag, select, fill, resize, wait, evaluate
 * (and close).
 */
import type { Locator, Page } from 'playwright-core';
import { ToolSearchError } from '@tool-search/kernel';
import { BrowserErrors } from './errors.js';
import { normalizeRef } from './snapshot.js';

export const ACT_KINDS = [
  'click',
  'type',
  'press',
  'hover',
  'drag',
  'select',
  'fill',
  'resize',
  'wait',
  'evaluate',
  'close',
] as const;
export type ActKind = (typeof ACT_KINDS)[number];

export type ActRequest = { readonly kind: ActKind } & Readonly<Record<string, unknown>>;

export interface ActSettings {
  readonly evaluateEnabled: boolean;
  readonly timeoutMs: number;
  /** The tab's latest snapshot: our ref → Playwright's. */
  readonly refs: ReadonlyMap<string, string>;
}

/** The element a ref names, checked against the latest snapshot (an unknown ref fails at once instead of waiting). */
export async function locate(
  page: Page,
  refs: ReadonlyMap<string, string>,
  ref: unknown,
  argument = 'ref',
): Promise<Locator> {
  if (typeof ref !== 'string' || !ref.trim())
    throw argumentsError(`${argument} (a ref from the latest snapshot, such as e12) is required`);
  const id = refs.get(normalizeRef(ref));
  const locator = id === undefined ? undefined : page.getByRef(id);
  if (!locator || (await locator.count()) === 0) {
    throw new ToolSearchError(
      BrowserErrors.BROWSER_REF_UNKNOWN,
      `ref ${JSON.stringify(ref.slice(0, 40))} is not in the latest snapshot of this tab; take a new snapshot`,
      { details: { ref: ref.slice(0, 40) } },
    );
  }
  return locator;
}

export async function act(page: Page, request: ActRequest, settings: ActSettings): Promise<Record<string, unknown>> {
  const timeout = settings.timeoutMs;
  switch (request.kind) {
    case 'click': {
      const target = await locate(page, settings.refs, request.ref);
      const options = {
        timeout,
        ...(isButton(request.button) ? { button: request.button } : {}),
        ...(modifiers(request.modifiers) ? { modifiers: modifiers(request.modifiers)! } : {}),
      };
      await (request.doubleClick === true ? target.dblclick(options) : target.click(options));
      return {};
    }
    case 'type': {
      const target = await locate(page, settings.refs, request.ref);
      const text = requireString(request.text, 'text');
      if (request.slowly === true) await target.pressSequentially(text, { timeout, delay: 50 });
      else await target.fill(text, { timeout });
      if (request.submit === true) await target.press('Enter', { timeout });
      return {};
    }
    case 'press': {
      const key = requireString(request.key, 'key');
      if (request.ref !== undefined) await (await locate(page, settings.refs, request.ref)).press(key, { timeout });
      else await page.keyboard.press(key);
      return {};
    }
    case 'hover':
      await (await locate(page, settings.refs, request.ref)).hover({ timeout });
      return {};
    case 'drag': {
      const from = await locate(page, settings.refs, request.startRef, 'startRef');
      const to = await locate(page, settings.refs, request.endRef, 'endRef');
      await from.dragTo(to, { timeout });
      return {};
    }
    case 'select': {
      const values = Array.isArray(request.values)
        ? request.values.map(String)
        : typeof request.value === 'string'
          ? [request.value]
          : undefined;
      if (!values) throw argumentsError('select needs values (an array of option values or labels)');
      const selected = await (await locate(page, settings.refs, request.ref)).selectOption(values, { timeout });
      return { selected };
    }
    case 'fill': {
      if (!Array.isArray(request.fields) || request.fields.length === 0)
        throw argumentsError('fill needs fields: [{ ref, value, type? }]');
      for (const field of request.fields as Record<string, unknown>[]) {
        const target = await locate(page, settings.refs, field.ref);
        if (field.type === 'checkbox' || field.type === 'radio' || typeof field.value === 'boolean')
          await target.setChecked(field.value === true || field.value === 'true', { timeout });
        else await target.fill(String(field.value ?? ''), { timeout });
      }
      return { filled: request.fields.length };
    }
    case 'resize': {
      const width = positiveInt(request.width, 'width');
      const height = positiveInt(request.height, 'height');
      await page.setViewportSize({ width, height });
      return { viewport: { width, height } };
    }
    case 'wait':
      return waitFor(page, request, timeout);
    case 'evaluate': {
      if (!settings.evaluateEnabled) throw argumentsError('evaluate is off here (browser.evaluateEnabled is false)');
      const fn = requireString(request.fn, 'fn');
      const source = /^\s*(async\s+)?(function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/.test(fn) ? fn : `() => (${fn})`;
      // Playwright's evaluate takes no timeout: a script that never yields would hold the call until the tool's
      // outer bound, so the action's own timeout applies here as it does to every other kind.
      return withinTimeout(evaluate(page, source, request.ref, settings), timeout, 'evaluate');
    }
    case 'close':
      await page.close({ runBeforeUnload: false });
      return { closed: true };
    default:
      throw argumentsError(`act kind must be one of ${ACT_KINDS.join(', ')}`);
  }
}

async function evaluate(
  page: Page,
  source: string,
  ref: unknown,
  settings: ActSettings,
): Promise<Record<string, unknown>> {
  // CDP evaluation, not page eval: a page's Content-Security-Policy does not decide what the operator may run.
  const compiled = await page.evaluateHandle(`(${source})`);
  try {
    const element =
      ref !== undefined
        ? await (await locate(page, settings.refs, ref)).elementHandle({ timeout: settings.timeoutMs })
        : undefined;
    const result = await compiled.evaluate((f, el) => (f as (el?: unknown) => unknown)(el ?? undefined), element);
    return { result: result === undefined ? null : result };
  } finally {
    await compiled.dispose().catch(() => undefined); // cleanup: the page may be gone; the result or error above is what counts
  }
}

/** The promise, or BROWSER_TIMEOUT after `ms`; a later rejection of the abandoned promise is dropped (the tab closes it). */
function withinTimeout<T>(promise: Promise<T>, ms: number, kind: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ToolSearchError(BrowserErrors.BROWSER_TIMEOUT, `browser act ${kind} did not finish in ${ms} ms`, {
            details: { action: 'act', kind, ms },
          }),
        ),
      ms,
    );
  });
  promise.catch(() => undefined); // abandoned after the timeout: its late failure has no caller left to tell
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

async function waitFor(page: Page, request: ActRequest, timeout: number): Promise<Record<string, unknown>> {
  const waited: string[] = [];
  if (typeof request.timeMs === 'number') {
    await page.waitForTimeout(Math.min(Math.max(0, request.timeMs), timeout));
    waited.push('time');
  }
  if (typeof request.text === 'string') {
    await page.getByText(request.text).first().waitFor({ state: 'visible', timeout });
    waited.push('text');
  }
  if (typeof request.textGone === 'string') {
    await page.getByText(request.textGone).first().waitFor({ state: 'hidden', timeout });
    waited.push('textGone');
  }
  if (typeof request.selector === 'string') {
    await page.locator(request.selector).first().waitFor({ state: 'visible', timeout });
    waited.push('selector');
  }
  if (typeof request.url === 'string') {
    await page.waitForURL(request.url.includes('*') ? request.url : (url) => url.href.includes(request.url as string), {
      timeout,
    });
    waited.push('url');
  }
  if (request.loadState === 'load' || request.loadState === 'domcontentloaded' || request.loadState === 'networkidle') {
    await page.waitForLoadState(request.loadState, { timeout });
    waited.push('loadState');
  }
  if (!waited.length) throw argumentsError('wait needs timeMs, text, textGone, selector, url or loadState');
  return { waited };
}

export function argumentsError(message: string): ToolSearchError {
  return new ToolSearchError(BrowserErrors.BROWSER_ARGUMENTS_INVALID, message);
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw argumentsError(`${name} (a string) is required`);
  return value;
}

function positiveInt(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 10_000)
    throw argumentsError(`${name} must be an integer from 1 to 10000`);
  return value;
}

function isButton(value: unknown): value is 'left' | 'right' | 'middle' {
  return value === 'left' || value === 'right' || value === 'middle';
}

type Modifier = 'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift';
function modifiers(value: unknown): Modifier[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const allowed = new Set(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']);
  return value.filter((entry): entry is Modifier => typeof entry === 'string' && allowed.has(entry));
}
