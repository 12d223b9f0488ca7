// Types of extract-worker.mjs (plain JavaScript so a worker thread runs it from src and dist alike).
export declare const MAX_DEPTH: number;
export declare const MAX_ELEMENTS: number;
export declare const READABILITY_BUDGET: number;
export declare function markupShape(html: string): { depth: number; elements: number };
export declare function strippedText(html: string): { title?: string; text: string };
export declare function clean(text: string): string;
export declare function extractHtml(
  body: string,
  mode: 'markdown' | 'text',
  onProvisional?: (result: { title?: string; text: string; extractor: 'stripped'; bounded: 'deadline' }) => void,
): { title?: string; text: string; extractor: 'readability' | 'html' | 'stripped'; bounded?: 'depth' | 'elements' };
