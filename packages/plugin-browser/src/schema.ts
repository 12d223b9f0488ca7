/** The `browser` tool's parameters, named as the Tools document names them. */
import type { JsonSchema } from '@tool-search/kernel';
import { ACT_KINDS } from './act.js';

export const BROWSER_ACTIONS = [
  'status',
  'start',
  'stop',
  'profiles',
  'create-profile',
  'delete-profile',
  'reset-profile',
  'tabs',
  'open',
  'focus',
  'close',
  'navigate',
  'snapshot',
  'screenshot',
  'act',
  'console',
  'pdf',
  'upload',
  'dialog',
] as const;
export type BrowserAction = (typeof BROWSER_ACTIONS)[number];

/** Where the Tools document lets the browser run: the gateway host, the session's sandbox, a paired node. */
export const BROWSER_TARGETS = ['sandbox', 'host', 'node'] as const;

const ref = {
  type: 'string',
  minLength: 1,
  maxLength: 40,
  description: 'Element ref from the latest snapshot (e12 or 12).',
} as const;

export const browserInputSchema: JsonSchema = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: [...BROWSER_ACTIONS] },
    profile: { type: 'string', maxLength: 64, description: 'Browser profile (default: browser.defaultProfile).' },
    target: {
      type: 'string',
      enum: [...BROWSER_TARGETS],
      description:
        'Where the browser runs (default host). Only host works here: no sandbox browser or paired node exists, and those are refused with BROWSER_TARGET_UNAVAILABLE.',
    },
    node: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Node id or name, with target "node" (refused here: no paired nodes).',
    },
    targetId: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'Tab id from "tabs" (a unique prefix works); default the current tab.',
    },
    targetUrl: { type: 'string', maxLength: 8192, description: 'URL for open / navigate.' },
    url: { type: 'string', maxLength: 8192, description: 'Alias of targetUrl.' },
    snapshotFormat: {
      type: 'string',
      enum: ['ai', 'aria'],
      description: 'ai: YAML with [ref=e12]; aria: flat nodes with ref "12".',
    },
    interactive: { type: 'boolean', description: 'Only elements one can act on, as a flat list.' },
    compact: { type: 'boolean', description: 'Drop unnamed container nodes.' },
    depth: { type: 'integer', minimum: 0, maximum: 100 },
    selector: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'CSS selector of the subtree to snapshot.',
    },
    maxChars: { type: 'integer', minimum: 100, maximum: 500_000 },
    limit: { type: 'integer', minimum: 1, maximum: 10_000, description: 'Most nodes (aria) or console entries.' },
    ref,
    element: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'CSS selector (screenshot of an element, upload input).',
    },
    inputRef: { ...ref, description: 'Ref of an <input type=file> to set files on directly (upload).' },
    paths: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      maxItems: 20,
      description: 'Workspace files to upload.',
    },
    fullPage: { type: 'boolean' },
    type: { type: 'string', enum: ['png', 'jpeg'], description: 'Screenshot format.' },
    request: {
      type: 'object',
      description:
        'act: { kind, ... } e.g. {kind:"click",ref}, {kind:"type",ref,text,submit}, {kind:"fill",fields:[{ref,value}]}, {kind:"press",key}, {kind:"select",ref,values}, {kind:"drag",startRef,endRef}, {kind:"hover",ref}, {kind:"resize",width,height}, {kind:"wait",text|textGone|selector|url|loadState|timeMs}, {kind:"evaluate",fn,ref?}, {kind:"close"}.',
      properties: { kind: { type: 'string', enum: [...ACT_KINDS] } },
      required: ['kind'],
    },
    accept: { type: 'boolean', description: 'dialog: accept (true) or dismiss (false) the open or next dialog.' },
    promptText: { type: 'string', maxLength: 10_000 },
    level: {
      type: 'string',
      enum: ['error', 'warning', 'info', 'log', 'debug', 'pageerror'],
      description: 'console: only this level.',
    },
    name: {
      type: 'string',
      maxLength: 200,
      description: 'Profile name for create-profile / delete-profile / reset-profile.',
    },
    cdpUrl: {
      type: 'string',
      maxLength: 2048,
      description: 'create-profile: attach to a running browser here (attach-only) instead of launching one.',
    },
    color: { type: 'string', maxLength: 32 },
  },
  required: ['action'],
  additionalProperties: false,
};
