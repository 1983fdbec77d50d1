/**
 * From a YAML document to plain values, and from a path back to a position. Decimal fields keep
 * the text as written: `withdrawIntegerMultiple: 1E-8` must stay `1E-8`, `withdrawFee: 0.50`
 * stay `0.50`, which a YAML number would lose.
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { IssuePath } from '../actions/validate';

const DECIMAL_KEYS = new Set([
  'withdrawFee', 'withdrawMin', 'withdrawInternalMin', 'depositDust', 'withdrawIntegerMultiple', 'price', 'string',
]);

export function toPlain(doc: Document, node: unknown, key?: string): unknown {
  if (isAlias(node)) return toPlain(doc, node.resolve(doc), key);
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      out[k] = toPlain(doc, pair.value, k);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => toPlain(doc, item));
  if (isScalar(node)) {
    if (key !== undefined && DECIMAL_KEYS.has(key) && typeof node.value === 'number' && typeof node.source === 'string') return node.source;
    return node.value;
  }
  return null;
}

/** Offset of the node a path names: the key itself for its last segment when `atKey`, else the value. */
function offsetOf(root: unknown, path: IssuePath, atKey: boolean): number {
  let node = root as Node | null;
  let offset = node?.range?.[0] ?? 0;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (pair === undefined) break;
      const keyNode = pair.key as Node;
      if (atKey && i === path.length - 1) return keyNode.range?.[0] ?? offset;
      node = pair.value as Node | null;
      offset = node?.range?.[0] ?? keyNode.range?.[0] ?? offset;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment] as Node | null;
      if (node === undefined) break;
      offset = node?.range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return offset;
}

export function positionOf(doc: Document, lineCounter: LineCounter, path: IssuePath, atKey: boolean): { line: number; col: number } {
  return lineCounter.linePos(offsetOf(doc.contents, path, atKey));
}
