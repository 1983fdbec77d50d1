/**
 * A hand-written YAML file that can say where each of its values is written: parsed with
 * positions, its syntax errors, a value path back to its node, and problems told as
 * `FILE:LINE:COL: message` in file order, the way a compiler would. The one pipeline under the
 * config and rules loaders (yaml-schema.ts) and the simulator's scenario files; each of them
 * words its own problems.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Pair, type YAMLError, type YAMLMap } from 'yaml';

export type PathSegment = string | number;

/** A problem at an offset of the file's text, before it is told as FILE:LINE:COL. */
export interface Located {
  offset: number;
  message: string;
}

export interface YamlSource {
  fileName: string;
  doc: Document;
  lineCounter: LineCounter;
}

export interface ParseOptions {
  /** `<<: *defaults` merges, as in docker-compose files; off where `<<` would be an unknown key. */
  merge?: boolean;
  /** Put before each syntax error's message. */
  syntaxPrefix?: string;
}

export type ParsedYaml = { ok: true; source: YamlSource } | { ok: false; problems: string[] };

/** A broken document would only add confusing problems of its values: its syntax errors come alone. */
export function parseYamlSource(text: string, fileName: string, { merge = false, syntaxPrefix = '' }: ParseOptions = {}): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge, uniqueKeys: true });
  const source = { fileName, doc, lineCounter };
  if (doc.errors.length > 0) return { ok: false, problems: tell(source, syntaxProblems(doc.errors, text, syntaxPrefix)) };
  return { ok: true, source };
}

/**
 * After the first error the parser reports every later token it cannot place; those
 * "unexpected token" follow-ups are noise, other errors are real.
 */
function syntaxProblems(errors: readonly YAMLError[], text: string, prefix: string): Located[] {
  return [...errors]
    .sort((a, b) => a.pos[0] - b.pos[0])
    .filter((e, i) => i === 0 || e.code !== 'UNEXPECTED_TOKEN')
    .map((e) => {
      const lineStart = text.lastIndexOf('\n', e.pos[0] - 1) + 1;
      const lineEnd = text.indexOf('\n', e.pos[0]);
      const line = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
      // `{ max: ${MAX} }` is the usual cause: braces end a flow map even inside a plain value.
      const hint = /[{[].*\$\{/.test(line) ? ' (quote values that contain ${...} inside { } or [ ])' : '';
      // One line per problem: a message that quotes a token may hold a line break.
      return { offset: e.pos[0], message: `${prefix}${e.message.split('\n')[0] ?? ''}${hint}` };
    });
}

/** `exchanges[0].poll.coins`; keys that are not identifiers are quoted: `headers["X-Key"]`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** `path: message`, or the message alone for the whole document. */
export function withPath(path: readonly PathSegment[], message: string): string {
  return path.length === 0 ? message : `${formatPath(path)}: ${message}`;
}

/** `FILE:LINE:COL` of an offset. */
export function position(source: YamlSource, offset: number): string {
  const { line, col } = source.lineCounter.linePos(offset);
  return `${source.fileName}:${line}:${col}`;
}

/** Each problem as `FILE:LINE:COL: message`, in file order (stable), each said once. */
export function tell(source: YamlSource, problems: readonly Located[]): string[] {
  const sorted = [...problems].sort((a, b) => a.offset - b.offset);
  // A check and a refinement may find the same problem; say it once.
  return [...new Set(sorted.map((p) => `${position(source, p.offset)}: ${p.message}`))];
}

// ---------------------------------------------------------------------------------------------
// From a value path back to the YAML node.

/** The key of a pair as it appears in the loaded value; undefined for `<<` merge keys. */
export function keyOf(pair: Pair<unknown, unknown>): string | undefined {
  if (!isScalar(pair.key)) return pair.key == null ? '' : String(pair.key);
  if (typeof pair.key.value === 'symbol') return undefined;
  return String(pair.key.value);
}

function deref(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/** The pair for `key` in a map, looking through `<<: *anchor` merges as the loaded value does. */
function findPair(doc: Document, map: YAMLMap<unknown, unknown>, key: string, depth = 0): Pair<unknown, unknown> | undefined {
  const direct = map.items.find((pair) => keyOf(pair) === key);
  if (direct !== undefined || depth > 8) return direct;
  for (const pair of map.items) {
    if (keyOf(pair) !== undefined) continue;
    const source = deref(doc, pair.value);
    const sources = isSeq(source) ? source.items.map((item) => deref(doc, item)) : [source];
    for (const s of sources) {
      const found = isMap(s) ? findPair(doc, s, key, depth + 1) : undefined;
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function offsetOf(node: unknown): number | undefined {
  return isScalar(node) || isMap(node) || isSeq(node) || isAlias(node) ? node.range?.[0] : undefined;
}

/**
 * The offset of the deepest node on the path (as far as the document has it). `at: 'key'`
 * points at the key of the last segment instead of its value (e.g. an unknown key).
 */
export function locate(source: YamlSource, path: readonly PathSegment[], at: 'key' | 'value' = 'value'): number {
  const { doc } = source;
  let node: unknown = doc.contents;
  let offset = offsetOf(node) ?? 0;
  let keyOffset: number | undefined;
  for (const seg of path) {
    const current = deref(doc, node);
    let next: unknown;
    let nextKey: unknown;
    if (isMap(current)) {
      const pair = findPair(doc, current, String(seg));
      if (pair === undefined) break;
      next = pair.value;
      nextKey = pair.key;
    } else if (isSeq(current) && typeof seg === 'number' && seg < current.items.length) {
      next = current.items[seg];
    } else {
      break;
    }
    keyOffset = offsetOf(nextKey);
    // `key:` with nothing after it has no value node worth pointing at: point at the key.
    offset = offsetOf(next) ?? keyOffset ?? offset;
    node = next;
  }
  return at === 'key' && keyOffset !== undefined ? keyOffset : offset;
}
