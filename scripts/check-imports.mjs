#!/usr/bin/env node
// Fails the build on an import cycle in src/, or on an import against the direction of
// DESIGN.md section 2 (edges -> pure core). Uses TypeScript's own pre-processor, so it reads
// imports exactly as the compiler does, without type-checking.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');

/**
 * What each top-level folder may import besides itself: whole folders, no file named as an
 * exception (DESIGN.md section 2: where the code needs one, the design is wrong), and no cycle
 * between folders (checked below, on this table and on the imports found). From the pure core
 * out: the domain (snapshot, rules, alerts, outages) under the edges that feed it and the ports
 * they define (notify/outbox-port.ts, storage/port.ts), the backends that implement the ports
 * (store), and what serves them (metrics, http), config (composed from the receiver and dialect
 * registries, which it does not list) at the top. The composition root (below) imports anything.
 */
const ALLOWED = {
  lib: [],
  snapshot: ['lib'],
  exchange: ['snapshot', 'lib'],
  // Notices (notices.md): their sources are requests and decoders like a dialect's, their mentions read the chain table.
  notices: ['exchange', 'snapshot', 'lib'],
  // Every rule kind, the notice rules among them (they read the notice book).
  rules: ['notices', 'snapshot', 'lib'],
  alerts: ['rules', 'snapshot', 'lib'],
  outages: ['snapshot', 'lib'],
  // Receiver folders import only notify/kit/, notifier.ts, plugin.ts and lib (RECEIVER_ONLY); notify names the store it needs (outbox-port.ts).
  notify: ['alerts', 'lib'],
  // The store port and the rows every backend (and a recording) writes: of the domain's types.
  storage: ['notify', 'outages', 'alerts', 'rules', 'notices', 'snapshot', 'lib'],
  // SQLite's backend of the port.
  store: ['storage', 'notify', 'outages', 'alerts', 'rules', 'notices', 'snapshot', 'lib'],
  // Receiver metrics derive from notify (DESIGN.md section 2): the failure reasons a notifier gives.
  metrics: ['notify', 'exchange', 'notices', 'alerts', 'rules', 'snapshot', 'lib'],
  http: ['metrics', 'storage', 'outages', 'alerts', 'rules', 'snapshot', 'exchange', 'notices', 'config', 'lib'],
  poll: ['storage', 'exchange', 'notices', 'alerts', 'rules', 'snapshot', 'lib'],
  // The reference exchange speaks spot-v3: it shares that dialect's wire format (SHARED_WIRE), and nothing else of exchange/.
  simulator: ['exchange', 'lib'],
  // The schema is composed from the registries of receivers and dialects, and the names of the dialects the
  // embedded exchange speaks (simulate.dialect); the rules file is read here, at the edge, and checked by rules/.
  config: ['notify', 'exchange', 'simulator', 'rules', 'lib'],
};

const RECEIVERS_LISTED = 'only notify/registry.ts imports a receiver folder (notify/<kind>/): the rest asks the registry';
const SIM_DIALECT_ONLY = 'a simulator dialect file (simulator/dialects/) imports only lib/, the simulator\'s market model and its own folder: built from the exchanges\' docs, never from a decoder';
const RECEIVER_ONLY = 'a receiver folder (notify/<kind>/) imports only notify/kit/, notify\'s types (notify/notifier.ts, notify/plugin.ts), lib and itself';
const KIT_ONLY = 'notify/kit/ (what receivers share) imports only itself and notify\'s types (notify/notifier.ts, notify/plugin.ts): no stage, no receiver, not the orchestrator';
const PIPELINE_ONLY = 'notify/pipeline/ (the stages) imports only itself and notify/notifier.ts: it knows no receiver and none of their toolkit';

/** The folders of notify/ that are not receivers: the pipeline's stages, and what the receivers share. */
const NOTIFY_PARTS = ['pipeline', 'kit'];
/** What a receiver folder and notify/kit/ may import of notify/'s root: the receiver interface and the plugin's types. */
const NOTIFY_TYPES = ['notify/notifier.ts', 'notify/plugin.ts'];

/** The composition root: cli.ts, the commands, daemon.ts and the parts daemon.ts is split into. */
const ROOT_FILES = ['cli.ts', 'daemon.ts'];
/** Folders that are part of the composition root: the commands (one file each) and what the root derives from config. */
const ROOT_FOLDERS = ['commands', 'runtime'];
const isRoot = (f) => ROOT_FILES.includes(f) || ROOT_FOLDERS.includes(f.split('/')[0]);

/** The only list of dialects, and the one file of a dialect folder that the simulator shares. */
const REGISTRY = 'exchange/dialects/registry.ts';
const SHARED_WIRE = 'exchange/dialects/spot-v3/wire.ts';
/** What several dialects share (`exchange/dialects/families/`): a shared part of exchange/, not a dialect folder. */
const FAMILIES = 'families';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const c of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(c)) return c;
  return undefined;
}

const files = walk(src);
const graph = new Map();
const problems = [];
for (const file of files) {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const deps = [];
  for (const ref of info.importedFiles) {
    const target = resolveImport(file, ref.fileName);
    if (target === undefined) continue;
    deps.push(target);
    const why = forbidden(relative(src, file), relative(src, target));
    if (why) problems.push(`${relative(root, file)}: imports ${relative(root, target)}: ${why}`);
  }
  graph.set(file, deps);
}

function forbidden(from, to) {
  if (to === 'cli.ts') return 'nothing imports cli.ts';
  if (to.startsWith('commands/') && from !== 'cli.ts' && !from.startsWith('commands/')) return 'only cli.ts imports the commands';
  if (to === 'daemon.ts' && from !== 'commands/run.ts') return 'only commands/run.ts imports daemon.ts';
  if (isRoot(to) && !isRoot(from)) return `only the composition root imports ${to}`;
  const simDialect = simulatorDialectRule(from, to);
  if (simDialect !== undefined) return simDialect || undefined;
  const dialect = dialectRule(from, to);
  if (dialect !== undefined) return dialect || undefined;
  const [fromTop] = from.split('/');
  const [toTop] = to.split('/');
  // The poll path runs one way: nothing it feeds (metrics, http, notify, store...) imports it back.
  if (toTop === 'poll' && fromTop !== 'poll' && !isRoot(from)) return 'only the composition root imports the poll path';
  if (receiverFolder(to) !== undefined && fromTop !== 'notify') return RECEIVERS_LISTED;
  if (fromTop === 'notify' && toTop === 'notify') return notifyRule(from, to);
  if (receiverFolder(from) !== undefined && toTop !== 'lib') return RECEIVER_ONLY;
  if (isRoot(from) || fromTop === toTop) return undefined;
  if (fromTop === 'simulator' && toTop === 'exchange' && to !== SHARED_WIRE) return `src/simulator/ shares only the wire format of spot-v3 (${SHARED_WIRE}) with exchange/`;
  const allowed = ALLOWED[fromTop];
  if (allowed === undefined) return `unknown folder src/${fromTop}: add it to scripts/check-imports.mjs`;
  if (allowed.includes(toTop)) return undefined;
  return `src/${fromTop}/ may import only ${allowed.length ? allowed.join(', ') : 'itself'}`;
}

/** A renderer of the reference exchange imports only lib/, simulator/market/ and simulator/dialects/. */
function simulatorDialectRule(from, to) {
  if (!from.startsWith('simulator/dialects/')) return undefined;
  const ok = to.startsWith('lib/') || to.startsWith('simulator/market/') || to.startsWith('simulator/dialects/');
  return ok ? '' : SIM_DIALECT_ONLY;
}

/** The folder of notify/ a file is in, `notify/<folder>/...`; undefined for notify/'s root and anything else. */
function notifyFolder(path) {
  const parts = path.split('/');
  return parts[0] === 'notify' && parts.length > 2 ? parts[1] : undefined;
}

/** The kind of a file in a receiver folder, `notify/<kind>/...`; undefined for any other file (notify/pipeline/ and notify/kit/ included). */
function receiverFolder(path) {
  const folder = notifyFolder(path);
  return folder !== undefined && !NOTIFY_PARTS.includes(folder) ? folder : undefined;
}

/** The dialect of a file in a dialect folder, `exchange/dialects/<name>/...`; undefined for any other file. */
function dialectFolder(path) {
  const parts = path.split('/');
  return parts[0] === 'exchange' && parts[1] === 'dialects' && parts.length > 3 && parts[2] !== FAMILIES ? parts[2] : undefined;
}

/**
 * A dialect folder imports only the shared parts of exchange/ (the families included), snapshot/
 * and lib/; only the registry imports a dialect folder (and the simulator spot-v3's wire
 * format); the shared parts of exchange/ are given their dialect, never import one. '' when
 * allowed here, a reason when forbidden, undefined when the rule has no say.
 */
function dialectRule(from, to) {
  const fromDialect = dialectFolder(from);
  const toDialect = dialectFolder(to);
  if (toDialect !== undefined && toDialect !== fromDialect) {
    if (from === REGISTRY || (from.startsWith('simulator/') && to === SHARED_WIRE)) return '';
    return `only ${REGISTRY} imports a dialect folder (exchange/dialects/<name>/): the rest asks the registry`;
  }
  if (fromDialect !== undefined) {
    const top = to.split('/')[0];
    if (toDialect === fromDialect || ((top === 'exchange' && to !== REGISTRY) || top === 'snapshot' || top === 'lib')) return '';
    return 'a dialect folder imports only exchange/ (its shared parts), snapshot/, lib/ and itself';
  }
  if (to === REGISTRY && from.startsWith('exchange/')) {
    return 'the shared parts of exchange/ are given their dialect: they do not import the registry';
  }
  return undefined;
}

/**
 * Within notify/: only the registry knows the receiver folders; a receiver folder uses notify/kit/,
 * notify's types and itself; notify/kit/ uses itself and notify's types; notify/pipeline/ uses
 * itself and the receiver interface (notify/notifier.ts).
 */
function notifyRule(from, to) {
  const fromKind = receiverFolder(from);
  const toKind = receiverFolder(to);
  if (toKind !== undefined && toKind !== fromKind) {
    if (fromKind !== undefined) return RECEIVER_ONLY;
    return from === 'notify/registry.ts' ? undefined : RECEIVERS_LISTED;
  }
  const toFolder = notifyFolder(to);
  if (fromKind !== undefined) return toKind === fromKind || toFolder === 'kit' || NOTIFY_TYPES.includes(to) ? undefined : RECEIVER_ONLY;
  const fromFolder = notifyFolder(from);
  if (fromFolder === 'kit' && toFolder !== 'kit' && !NOTIFY_TYPES.includes(to)) return KIT_ONLY;
  if (fromFolder === 'pipeline' && toFolder !== 'pipeline' && to !== 'notify/notifier.ts') return PIPELINE_ONLY;
  return undefined;
}

// Every dialect folder has one shape: its plugin, its decode, its wire format, its signing where it signs.
const DIALECT_SHAPE = { required: ['index.ts', 'decode.ts', 'wire.ts'], optional: ['sign.ts'] };
const dialectsDir = join(src, 'exchange', 'dialects');
for (const name of readdirSync(dialectsDir)) {
  if (name === FAMILIES || !statSync(join(dialectsDir, name)).isDirectory()) continue;
  const inFolder = readdirSync(join(dialectsDir, name));
  const folder = `src/exchange/dialects/${name}/`;
  for (const f of DIALECT_SHAPE.required) if (!inFolder.includes(f)) problems.push(`${folder} has no ${f} (a dialect folder is ${DIALECT_SHAPE.required.join(', ')} and, where it signs, sign.ts)`);
  for (const f of inFolder) {
    if (!DIALECT_SHAPE.required.includes(f) && !DIALECT_SHAPE.optional.includes(f)) problems.push(`${folder}${f}: not a part of a dialect folder (${[...DIALECT_SHAPE.required, ...DIALECT_SHAPE.optional].join(', ')}): what several dialects share goes in exchange/dialects/${FAMILIES}/`);
  }
}

// Tarjan's strongly connected components: every component of more than one node (or a node
// that imports itself) is a cycle.
function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  function strong(v) {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || [...(graph.get(v) ?? [])].includes(v)) found.push(comp.sort());
    }
  }
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return found;
}
for (const comp of cycles(graph)) problems.push(`import cycle: ${comp.map((f) => relative(root, f)).join(' -> ')}`);

// No cycle between top-level folders: in what the table allows, and in what src/ imports (the
// composition root aside: it imports everything and nothing imports it).
const allowedFolders = new Map(Object.entries(ALLOWED));
for (const comp of cycles(allowedFolders)) problems.push(`scripts/check-imports.mjs: ALLOWED lets these folders import each other round in a cycle: ${comp.join(', ')}`);
const folders = new Map();
for (const [file, deps] of graph) {
  const from = relative(src, file);
  if (isRoot(from) || !from.includes('/')) continue;
  const top = from.split('/')[0];
  const tops = folders.get(top) ?? new Set();
  folders.set(top, tops);
  for (const d of deps) {
    const to = relative(src, d);
    if (!isRoot(to) && to.includes('/') && to.split('/')[0] !== top) tops.add(to.split('/')[0]);
  }
}
for (const comp of cycles(folders)) problems.push(`folder cycle: these folders import each other round in a cycle: ${comp.map((f) => `src/${f}/`).join(', ')}`);

// --- The purity of `step` (DESIGN.md section 2) ------------------------------------------------
// Every file `step` reaches through its imports: no clock, no logger, no store, no I/O, no
// timers, no awaits, no state kept between calls at module level.
const STEP = join(src, 'poll', 'step.ts');
/** Modules a pure file may import besides its own project's: crypto's hashes are deterministic. */
const PURE_BUILTINS = new Set(['node:crypto', 're2js']);
/** Names a pure file may not use: the clock, randomness, timers, the process. */
const IMPURE_NAMES = new Set(['Date.now', 'Math.random', 'performance', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'process', 'console']);

function reached(from) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const d of graph.get(f) ?? []) visit(d);
  };
  visit(from);
  return seen;
}

function purityProblems(file) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out = [];
  const where = (node) => `${relative(root, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
    if (!ref.fileName.startsWith('.') && !PURE_BUILTINS.has(ref.fileName)) out.push(`${relative(root, file)}: imports ${ref.fileName}, which step (pure) may not reach`);
  }
  for (const stmt of sf.statements) {
    if (!ts.isVariableStatement(stmt)) continue;
    const flags = stmt.declarationList.flags;
    if ((flags & ts.NodeFlags.Let) !== 0 || (flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) === 0) out.push(`${where(stmt)}: a module-level let or var: state kept between calls of step`);
    for (const d of stmt.declarationList.declarations) {
      const init = d.initializer;
      const typed = d.type !== undefined && /^Readonly(Map|Set)</.test(d.type.getText(sf));
      if (init !== undefined && ts.isNewExpression(init) && /^(Map|Set|WeakMap|WeakSet)$/.test(init.expression.getText(sf)) && !typed) {
        out.push(`${where(d)}: a module-level ${init.expression.getText(sf)}: state kept between calls of step (type it Readonly if it is a constant)`);
      }
    }
  }
  const visit = (node) => {
    if (ts.isAwaitExpression(node) || (ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword))) out.push(`${where(node)}: async code in what step reaches`);
    if ((ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) && IMPURE_NAMES.has(node.getText(sf)) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node)) {
      out.push(`${where(node)}: ${node.getText(sf)} in what step reaches (time, randomness and timers are inputs)`);
    }
    if (ts.isNewExpression(node) && node.expression.getText(sf) === 'Date' && (node.arguments?.length ?? 0) === 0) out.push(`${where(node)}: new Date() reads the clock`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const core = reached(STEP);
for (const f of core) problems.push(...purityProblems(f));

// --- One scheduler (DESIGN.md section 2) -------------------------------------------------------
// Every wait of the daemon goes through lib/scheduler.ts: no other file names the timers. Strings
// and comments are not read: the status page's script (http/status-assets.ts STATUS_JS) is text
// the daemon serves, and its one timer (the page's 10 s refresh) runs in the reader's browser,
// where the daemon's scheduler does not exist.
const SCHEDULER = join(src, 'lib', 'scheduler.ts');
const TIMERS = new Set(['setTimeout', 'setInterval', 'setImmediate']);
for (const file of files) {
  if (file === SCHEDULER) continue;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, readFileSync(file, 'utf8'));
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.Identifier && TIMERS.has(scanner.getTokenText())) {
      problems.push(`${relative(root, file)}: calls ${scanner.getTokenText()}: every wait goes through src/lib/scheduler.ts`);
      break;
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`imports: ${files.length} files in ${folders.size} folders, no cycles between files or folders, directions as in DESIGN.md; step and the ${core.size - 1} files it reaches are pure; every timer is the scheduler's`);
