/**
 * Load a hand-written YAML file against a zod schema and explain every problem as
 * `FILE:LINE:COL: message`, the way a compiler would: all of them, in file order, each pointing
 * at the node the user has to edit. Shared by the config and the rules file loaders.
 */
import { isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { expandEnv, type Env } from './env-expand';
import { describeValue } from './schema-types';
import { keyOf, locate, parseYamlSource, tell, withPath, type Located, type PathSegment, type YamlSource } from './yaml-source';

export type { PathSegment } from './yaml-source';

/**
 * A problem found by a check of the loaded value; the message is prefixed with the path when
 * reported. `at: 'key'` points at the key of the last path segment instead of its value (a map
 * that has two keys where one is allowed points at the second key). zod refinements can ask
 * for the same with `params: { at: 'key' }`.
 */
export interface YamlIssue {
  path: readonly PathSegment[];
  message: string;
  at?: 'key' | 'value';
}

export type LoadYamlResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export interface LoadYamlOptions {
  /**
   * Checks across the document (unique names, references between sections) that run on the
   * unvalidated value, so they are reported together with schema problems: zod skips refinements
   * of any object that has an invalid member.
   */
  check?: (value: unknown) => YamlIssue[];
  /**
   * Limits on the loaded value (how many entries a list may hold), checked before the schema:
   * when one is exceeded, that is the only problem reported, without validating (and
   * compiling) what is too large to use anyway.
   */
  limit?: (value: unknown) => YamlIssue[];
}

type YamlNode = NonNullable<Document['contents']>;

export function loadYaml<S extends z.ZodTypeAny>(
  text: string,
  fileName: string,
  schema: S,
  env: Env,
  options: LoadYamlOptions = {},
): LoadYamlResult<z.output<S>> {
  // merge: `<<: *defaults` lets several exchanges share settings, as in docker-compose files.
  const parsed = parseYamlSource(text, fileName, { merge: true, syntaxPrefix: 'YAML syntax error: ' });
  if (!parsed.ok) return parsed;
  const { source } = parsed;
  const { doc } = source;
  const fail = (problems: Located[]): LoadYamlResult<z.output<S>> => ({ ok: false, problems: tell(source, problems) });

  const problems: Located[] = [];
  const envFailures: PathSegment[][] = [];
  const failed: EnvFailure = (node, path, message) => {
    envFailures.push(path);
    problems.push({ offset: node.range?.[0] ?? 0, message: withPath(path, message) });
  };
  expandScalars(doc.contents, [], env, failed);
  nonFiniteNumbers(doc.contents, [], text, failed);

  let value: unknown;
  try {
    value = doc.toJS();
  } catch (e) {
    // toJS refuses alias bombs ("excessive alias count"); the file is hostile or broken.
    return fail([{ offset: 0, message: e instanceof Error ? e.message : String(e) }]);
  }

  // Where an unset variable left a value unexpanded (or a number is not finite), the schema's
  // complaint about that value would only repeat the same problem in worse words.
  const masked = (path: readonly PathSegment[]): boolean =>
    envFailures.some((failed) => failed.every((seg, i) => String(path[i]) === String(seg)));
  const report = (issue: YamlIssue): void => {
    if (!masked(issue.path)) problems.push(locateIssue(source, issue));
  };

  const exceeded = options.limit?.(value) ?? [];
  if (exceeded.length > 0) return fail(exceeded.map((issue) => locateIssue(source, { ...issue, message: withPath(issue.path, issue.message) })));

  for (const issue of options.check?.(value) ?? []) report({ ...issue, message: withPath(issue.path, issue.message) });
  const result = schema.safeParse(value, { errorMap });
  if (!result.success) {
    for (const issue of result.error.issues) for (const mapped of explainIssue(issue, schema)) report(mapped);
  }
  if (problems.length > 0 || !result.success) return fail(problems);
  return { ok: true, value: result.data };
}

function locateIssue(source: YamlSource, issue: YamlIssue): Located {
  return { offset: locate(source, issue.path, issue.at), message: issue.message };
}

// ---------------------------------------------------------------------------------------------
// Environment expansion, in place on the document so positions stay known.

type EnvFailure = (node: YamlNode, path: PathSegment[], message: string) => void;

function expandScalars(node: unknown, path: PathSegment[], env: Env, onError: EnvFailure): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = keyOf(pair);
      if (key !== undefined) expandScalars(pair.value, [...path, key], env, onError);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => expandScalars(item, [...path, i], env, onError));
  } else if (isScalar(node) && typeof node.value === 'string') {
    // Only values: keys are the schema's vocabulary, and an anchored scalar is expanded once
    // where it is defined (aliases are skipped above because they are not scalars).
    const { value, substituted, errors } = expandEnv(node.value, env);
    for (const message of errors) onError(node, path, message);
    node.value = node.type === 'PLAIN' && substituted ? retype(value) : value;
  }
}

/**
 * `1e400`, `.inf` and `.nan` are YAML numbers that JavaScript reads as Infinity and NaN: a bound
 * of Infinity is never crossed (`above: 1e400` never fires) and NaN compares false with
 * everything, so no number of a config or rules file may be one (checked after expansion, so
 * `${X}` with X=1e400 is refused too).
 */
function nonFiniteNumbers(node: unknown, path: PathSegment[], text: string, onError: EnvFailure): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = keyOf(pair);
      if (key !== undefined) nonFiniteNumbers(pair.value, [...path, key], text, onError);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => nonFiniteNumbers(item, [...path, i], text, onError));
  } else if (isScalar(node) && typeof node.value === 'number' && !Number.isFinite(node.value)) {
    const written = node.range === undefined || node.range === null ? String(node.value) : text.slice(node.range[0], node.range[1]);
    onError(node, path, `must be a finite number, got ${written.length > 40 ? `${written.slice(0, 40)}...` : written}`);
  }
}

/**
 * An unquoted `max: ${MAX}` should give the number 500, as it would have had the value been
 * written in place; a quoted one stays a string. Only numbers and booleans are re-read: the
 * environment must not be able to inject structure.
 */
function retype(text: string): unknown {
  if (!/^[\w.+-]+$/.test(text)) return text;
  const doc = parseDocument(text);
  const value: unknown = doc.errors.length === 0 && isScalar(doc.contents) ? doc.contents.value : undefined;
  return typeof value === 'number' || typeof value === 'boolean' ? value : text;
}

// ---------------------------------------------------------------------------------------------
// zod issues in words.

const TYPE_NAMES: Partial<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'a map',
  array: 'a list',
  null: 'an empty value',
};

function plural(n: number | bigint, word: string): string {
  return `${n} ${word}${n === 1 || n === 1n ? '' : 's'}`;
}

/** Messages without the path: the loader puts the path in front. */
const errorMap: z.ZodErrorMap = (issue, ctx) => {
  switch (issue.code) {
    case z.ZodIssueCode.invalid_type:
      return { message: `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${describeValue(ctx.data)}` };
    case z.ZodIssueCode.invalid_enum_value:
      return { message: `expected one of ${issue.options.join(', ')}, got ${describeValue(ctx.data)}` };
    case z.ZodIssueCode.invalid_literal:
      return { message: `expected ${describeValue(issue.expected)}, got ${describeValue(ctx.data)}` };
    case z.ZodIssueCode.too_small:
      if (issue.type === 'array') return { message: `needs at least ${plural(issue.minimum, 'entry').replace(/entrys$/, 'entries')}` };
      if (issue.type === 'string') return { message: issue.minimum === 1 ? 'must not be empty' : `must be at least ${plural(issue.minimum, 'character')} long` };
      return { message: `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}, got ${describeValue(ctx.data)}` };
    case z.ZodIssueCode.too_big:
      if (issue.type === 'array') return { message: `allows at most ${plural(issue.maximum, 'entry').replace(/entrys$/, 'entries')}` };
      if (issue.type === 'string') return { message: `must be at most ${plural(issue.maximum, 'character')} long` };
      return { message: `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}, got ${describeValue(ctx.data)}` };
    case z.ZodIssueCode.invalid_string:
      return { message: `invalid value ${describeValue(ctx.data)}` };
    case z.ZodIssueCode.invalid_union:
    case z.ZodIssueCode.invalid_union_discriminator:
      return { message: `${describeValue(ctx.data)} is not one of the accepted forms` };
    default:
      return { message: ctx.defaultError };
  }
};

function explainIssue(issue: z.ZodIssue, schema: z.ZodTypeAny): YamlIssue[] {
  if (issue.code === z.ZodIssueCode.unrecognized_keys) {
    const expected = objectKeysAt(schema, issue.path);
    const hint = expected.length > 0 ? ` (expected one of: ${expected.join(', ')})` : '';
    return issue.keys.map((key) => ({
      path: [...issue.path, key],
      at: 'key',
      message: withPath(issue.path, `unknown key "${key}"${hint}`),
    }));
  }
  if (issue.code === z.ZodIssueCode.invalid_type && issue.received === z.ZodParsedType.undefined && issue.path.length > 0) {
    // Point at the map the key belongs in: there is no node for something that is not there.
    const parent = issue.path.slice(0, -1);
    return [{ path: parent, message: withPath(parent, `missing required key "${String(issue.path.at(-1))}"`) }];
  }
  const params: unknown = issue.code === z.ZodIssueCode.custom ? issue.params : undefined;
  const atKey = typeof params === 'object' && params !== null && 'at' in params && params.at === 'key';
  return [{ path: issue.path, at: atKey ? 'key' : 'value', message: withPath(issue.path, issue.message) }];
}

// ---------------------------------------------------------------------------------------------
// The schema at a path, to list the keys a map accepts.

function unwrap(schema: z.ZodTypeAny): z.ZodTypeAny {
  for (let s = schema; ; ) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
    else if (s instanceof z.ZodDefault) s = s.removeDefault();
    else if (s instanceof z.ZodEffects) s = s.innerType();
    else if (s instanceof z.ZodPipeline) s = s._def.in;
    else if (s instanceof z.ZodLazy) s = s.schema;
    else if (s instanceof z.ZodCatch) s = s.removeCatch();
    else if (s instanceof z.ZodBranded) s = s.unwrap();
    else if (s instanceof z.ZodReadonly) s = s._def.innerType;
    else return s;
  }
}

function schemasAt(schema: z.ZodTypeAny, path: readonly PathSegment[]): z.ZodTypeAny[] {
  let current = [schema];
  for (const seg of path) {
    current = current.flatMap((candidate) => childSchemas(unwrap(candidate), seg));
  }
  return current.map(unwrap);
}

function childSchemas(s: z.ZodTypeAny, seg: PathSegment): z.ZodTypeAny[] {
  if (s instanceof z.ZodObject) {
    const child: unknown = s.shape[String(seg)];
    return child instanceof z.ZodType ? [child] : [];
  }
  if (s instanceof z.ZodArray) return [s.element];
  if (s instanceof z.ZodRecord) return [s.valueSchema];
  if (s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion) {
    const options: z.ZodTypeAny[] = [...s.options];
    return options.flatMap((o) => childSchemas(unwrap(o), seg));
  }
  return [];
}

function objectKeysAt(schema: z.ZodTypeAny, path: readonly PathSegment[]): string[] {
  const keys = schemasAt(schema, path).flatMap((s) => (s instanceof z.ZodObject ? Object.keys(s.shape) : []));
  return [...new Set(keys)];
}
