import type { Storage } from '../../core/storage/index.js';

/**
 * Keys one listing may read before it counts as too broad: at least one full page (what a single
 * request returns anyway), else a few per key it answers.
 */
const LIST_BUDGET_MIN_KEYS = 1000;
const LIST_BUDGET_KEYS_PER_WANTED = 4;
/** Groups this small are checked key by key: a listing could not save a request. */
const CHECK_ONE_BY_ONE_AT_MOST = 2;
const LIST_CONCURRENCY = 4;
const EXISTS_CONCURRENCY = 32;

/** Keys of one folder, sorted; `prefix` is the folder plus the longest name prefix they share. */
export interface KeyGroup {
  prefix: string;
  keys: string[];
}

export interface ExistingKeysOptions {
  /**
   * Answer by listing. Default: on every store but a local folder, where exists() is one stat and
   * a listing (which reads the whole directory) cannot beat it.
   */
  byListing?: boolean;
}

/**
 * Which of `keys` exist in `storage`. On object stores each exists() is a network round trip;
 * one non-recursive listing of the narrowest prefix covering a folder's keys answers hundreds
 * with one request. A listing that reads far more keys than it answers (a crowded folder, keys
 * spread over it) is given up and its group split by the next character of the keys, down to
 * single checks, so the cost stays near the cheaper of the two ways. Memory: the keys asked for.
 */
export async function existingKeys(storage: Storage, keys: Iterable<string>, opts: ExistingKeysOptions = {}): Promise<Set<string>> {
  const byListing = opts.byListing ?? !storage.rootUri.startsWith('file:');
  const found = new Set<string>();
  const oneByOne: string[] = [];
  let pending = byListing ? groupByFolder(keys) : [];
  if (!byListing) oneByOne.push(...new Set(keys));
  while (pending.length) {
    const narrower: KeyGroup[] = [];
    await forEachLimit(pending, LIST_CONCURRENCY, async (group) => {
      if (group.keys.length <= CHECK_ONE_BY_ONE_AT_MOST) return void oneByOne.push(...group.keys);
      const hits = await listHits(storage, group);
      if (hits) for (const k of hits) found.add(k);
      else narrower.push(...splitGroup(group));
    });
    pending = narrower;
  }
  await forEachLimit(oneByOne, EXISTS_CONCURRENCY, async (key) => {
    if (await storage.exists(key)) found.add(key);
  });
  return found;
}

/** The group's keys present in one listing of its prefix, or null when the listing ran over budget. */
async function listHits(storage: Storage, group: KeyGroup): Promise<string[] | null> {
  const wanted = new Set(group.keys);
  const budget = Math.max(LIST_BUDGET_MIN_KEYS, LIST_BUDGET_KEYS_PER_WANTED * group.keys.length);
  const hits: string[] = [];
  let read = 0;
  // Non-recursive: the group's keys all sit directly in one folder, sub-folders only cost reads.
  for await (const object of storage.list({ prefix: group.prefix, recursive: false })) {
    if (++read > budget) return null;
    if (wanted.has(object.key)) hits.push(object.key);
  }
  return hits;
}

/** Distinct keys grouped by folder, each group with its narrowest shared prefix. */
export function groupByFolder(keys: Iterable<string>): KeyGroup[] {
  const byFolder = new Map<string, string[]>();
  for (const key of new Set(keys)) {
    const folder = key.slice(0, key.lastIndexOf('/') + 1);
    const list = byFolder.get(folder);
    if (list) list.push(key);
    else byFolder.set(folder, [key]);
  }
  return [...byFolder.values()].map((list) => narrowest(list.sort()));
}

/**
 * Splits a group by the character after its prefix. Each part shares a longer prefix, so repeated
 * splitting ends in groups of one.
 */
export function splitGroup(group: KeyGroup): KeyGroup[] {
  const at = group.prefix.length;
  const parts: string[][] = [];
  for (const key of group.keys) {
    const last = parts.at(-1);
    if (last && last[0]!.codePointAt(at) === key.codePointAt(at)) last.push(key);
    else parts.push([key]);
  }
  return parts.map(narrowest);
}

/** Sorted keys share what the first and the last share. */
function narrowest(sorted: string[]): KeyGroup {
  const first = sorted[0]!;
  const last = sorted.at(-1)!;
  let n = 0;
  while (n < first.length && first[n] === last[n]) n++;
  // Never end inside a surrogate pair: half a character would not encode into the request.
  if (n > 0 && n < first.length && isHighSurrogate(first.charCodeAt(n - 1))) n--;
  return { prefix: first.slice(0, n), keys: sorted };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
