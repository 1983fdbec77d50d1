/**
 * Validation of action objects, reporting every problem with the path it concerns, so the
 * scenario parser can place it at FILE:LINE:COL and the admin API can name it.
 */
import type { ZodIssue } from 'zod';
import { withPath, type PathSegment } from '../../lib/yaml-source';
import { ACTION_NAMES, ACTION_SCHEMAS, type Action, type ActionName } from './schema';

export type IssuePath = PathSegment[];

export interface Issue {
  path: IssuePath;
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(root: unknown, path: IssuePath): unknown {
  let node = root;
  for (const key of path) node = isRecord(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}

/** Zod's issues, reworded for people who write YAML. */
export function fromZodIssues(issues: readonly ZodIssue[], input: unknown, prefix: IssuePath = []): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: [...path, key], message: `unknown field "${key}"` });
    } else if (issue.code === 'invalid_type' && issue.received === 'undefined') {
      out.push({ path: path.slice(0, -1), message: `missing field "${String(issue.path[issue.path.length - 1] ?? '')}"` });
    } else if (issue.code === 'invalid_union_discriminator') {
      const got = valueAt(input, issue.path);
      out.push({ path, message: `unknown ${String(issue.path[issue.path.length - 1])} ${JSON.stringify(got)} (expected one of: ${issue.options.join(', ')})` });
    } else if (issue.code === 'invalid_enum_value') {
      out.push({ path, message: `must be one of: ${issue.options.join(', ')} (got ${JSON.stringify(issue.received)})` });
    } else if (issue.code === 'invalid_type') {
      const expected = issue.expected === 'integer' ? 'an integer' : issue.expected === 'object' ? 'a mapping' : `a ${issue.expected}`;
      out.push({ path, message: `must be ${expected} (got ${JSON.stringify(valueAt(input, issue.path)) ?? issue.received})` });
    } else if (issue.code === 'too_small' && issue.type === 'number') {
      out.push({ path, message: `must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)} (got ${JSON.stringify(valueAt(input, issue.path))})` });
    } else if (issue.code === 'too_big' && issue.type === 'number') {
      out.push({ path, message: `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)} (got ${JSON.stringify(valueAt(input, issue.path))})` });
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}

/** `steps[2].set.withdrawFee: message`, the path written as the config's and rules' are. */
export function formatIssue(issue: Issue): string {
  return withPath(issue.path, issue.message);
}

/** One action object: `action` names it, the other keys are its fields. */
export function validateAction(input: unknown, prefix: IssuePath = []): Validation<Action> {
  if (!isRecord(input)) return { ok: false, issues: [{ path: prefix, message: 'an action must be an object with an `action` field' }] };
  const { action: name, ...fields } = input;
  if (name === undefined) return { ok: false, issues: [{ path: prefix, message: 'missing field "action"' }] };
  if (typeof name !== 'string' || !(ACTION_NAMES as string[]).includes(name)) {
    return { ok: false, issues: [{ path: [...prefix, 'action'], message: `unknown action ${JSON.stringify(name)} (expected one of: ${ACTION_NAMES.join(', ')})` }] };
  }
  const result = ACTION_SCHEMAS[name as ActionName].safeParse(fields);
  if (!result.success) return { ok: false, issues: fromZodIssues(result.error.issues, fields, prefix) };
  return { ok: true, value: { action: name, ...result.data } as Action };
}

/** One action or an array of them, all validated before any is applied. */
export function validateActions(input: unknown): Validation<Action[]> {
  const items = Array.isArray(input) ? input : [input];
  const actions: Action[] = [];
  const issues: Issue[] = [];
  items.forEach((item, i) => {
    const v = validateAction(item, Array.isArray(input) ? [i] : []);
    if (v.ok) actions.push(v.value);
    else issues.push(...v.issues);
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: actions };
}
