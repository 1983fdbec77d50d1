/** A state_dir that cannot be used is a StoreError naming the real cause, not Node's code. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateStore, StoreError } from '../../src/store/store';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-state-dir-'));
  writeFileSync(join(dir, 'file'), 'not a directory');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problem(stateDir: string): string {
  try {
    StateStore.open(stateDir).close();
  } catch (err) {
    if (err instanceof StoreError) return err.message;
    throw err;
  }
  return 'opened';
}

it('names a file where the directory should be', () => {
  expect(problem(join(dir, 'file'))).toBe(`cannot use state_dir ${join(dir, 'file')}: it is a file, not a directory`);
});

it('names the file in the way of a directory to be made under it', () => {
  expect(problem(join(dir, 'file', 'data'))).toBe(`cannot use state_dir ${join(dir, 'file', 'data')}: ${join(dir, 'file')} is a file, not a directory`);
  expect(problem(join(dir, 'file', 'a', 'b'))).toBe(`cannot use state_dir ${join(dir, 'file', 'a', 'b')}: ${join(dir, 'file')} is a file, not a directory`);
});

it('makes a directory that does not exist yet', () => {
  expect(problem(join(dir, 'new', 'data'))).toBe('opened');
});
