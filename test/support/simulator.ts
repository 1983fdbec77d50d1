/** Real-HTTP helpers for tests against the reference exchange. */
import { request } from 'node:http';
import { manualClock } from '../../src/lib/clock';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/simulator';

/** 2025-01-01T12:00:00.000Z: tests run on a manual clock at a fixed, realistic time. */
export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

export type ManualClock = ReturnType<typeof manualClock>;

export interface TestSimulator extends RunningSimulator {
  clock: ManualClock;
}

/** A simulator on an ephemeral port with a manual clock at T0 (unless another clock is given). */
export async function startTestSimulator(options: SimulatorOptions = {}): Promise<TestSimulator> {
  const clock = manualClock(T0);
  const sim = await startSimulator({ port: 0, clock, ...options });
  return { ...sim, clock };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export async function get(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export async function getJson<T = unknown>(base: string, path: string): Promise<T> {
  const answer = await get(base, path);
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
  return JSON.parse(answer.text) as T;
}

export async function postJson(base: string, path: string, body: unknown, method = 'POST'): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

/** A GET from a chosen loopback source address: how tests play several client IPs. */
export function getFrom(localAddress: string, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers, text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
