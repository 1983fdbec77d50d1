// The floor of a poll cycle: a bare client that only receives the same two answers the daemon
// polls (undici, the daemon's own HTTP client, with the same Accept-Encoding), every second,
// and compares each body with the last bytes it got; nothing decoded, stored or shown. What it
// costs, as the OS counts it for the whole process, is what merely receiving the answers costs:
// the daemon's figure is read against it (issue 30). Run as a child process by bench/cycle.mjs:
//   node bench/floor.mjs BASE_URL
import { request } from 'undici';
import { Buffer } from 'node:buffer';
import { gunzipSync } from 'node:zlib';

const base = process.argv[2];
const last = { coins: undefined, tickers: undefined };
const PATHS = { coins: '/api/v3/coins', tickers: '/api/v3/market/ticker/24hr' };

async function fetchOnce(which) {
  const res = await request(`${base}${PATHS[which]}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
  const chunks = [];
  for await (const chunk of res.body) chunks.push(chunk);
  const raw = Buffer.concat(chunks);
  // Compared as the daemon compares them: the same bytes as the last cost nothing more; other compressed bytes are decompressed.
  if (last[which] === undefined || !last[which].equals(raw)) {
    if (res.headers['content-encoding'] === 'gzip') gunzipSync(raw);
    last[which] = raw;
  }
}

for (;;) {
  const t = performance.now();
  await Promise.all([fetchOnce('coins'), fetchOnce('tickers')]);
  const wait = 1_000 - (performance.now() - t);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
