/**
 * The status page's style sheet and script, served from our own paths (/status.css,
 * /status.js) so the page's CSP can forbid every inline style and script. No framework: the
 * script filters the shown rows as one types, submits the sort, and refreshes the page every
 * 10 s while nobody is reading an opened network or typing.
 */
export const STATUS_CSS = `
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 0 auto; padding: 12px; max-width: 1200px; color: #1b1b1b; background: #fafafa; overflow-wrap: anywhere; }
[hidden] { display: none !important; }
h1 { font-size: 1.3rem; margin: 0 0 4px; } h2 { font-size: 1.05rem; margin: 20px 0 6px; }
.meta, .legend { color: #555; font-size: .85rem; }
.filter { display: flex; flex-wrap: wrap; gap: 6px; margin: 10px 0; align-items: center; }
.filter input { flex: 1 1 16em; min-width: 0; font-size: 1rem; padding: 6px 8px; border: 1px solid #bbb; border-radius: 4px; }
.filter select, .filter button { font-size: .95rem; padding: 5px 8px; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; background: #fff; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
th { background: #f0f0f0; font-weight: 600; white-space: nowrap; }
td { white-space: nowrap; } td.msg { white-space: normal; min-width: 14em; max-width: 420px; }
.scroll { overflow-x: auto; }
.more, .pager { color: #555; font-size: .85rem; margin: 4px 0 0; }
.ok { color: #1a7f37; } .bad { color: #c62828; font-weight: 600; } .muted, .empty { color: #595959; }
.sev-critical { color: #c62828; font-weight: 600; } .sev-warning { color: #8a5300; } .sev-info { color: #1565c0; }
.cards { display: flex; flex-direction: column; gap: 4px; }
details.net { background: #fff; border: 1px solid #e3e3e3; border-radius: 6px; }
details.net.closed { border-left: 4px solid #c62828; }
details.net > summary { list-style: none; cursor: pointer; display: grid; grid-template-columns: minmax(10em, 1.2fr) 19.5em minmax(12em, 1.6fr) 7.5em; gap: 8px; align-items: center; padding: 6px 8px; font-size: .9rem; }
details.net > summary::-webkit-details-marker { display: none; }
.chain, .ex { color: #666; font-size: .8rem; }
.bars { display: flex; gap: 2px; min-width: 0; }
.d { display: inline-block; flex: 1 1 0; min-width: 3px; height: 22px; border-radius: 2px; background: #ccc; }
.legend .d { width: 10px; height: 12px; flex: none; vertical-align: middle; }
.d.up { background: #2da44e; } .d.dip { background: #9ccc65; } .d.part { background: #f0a500; } .d.down { background: #d32f2f; } .d.none { background: #d9d9d9; }
.ratio { font-size: .8rem; color: #555; text-align: right; }
.more-info { padding: 0 10px 8px; font-size: .85rem; }
.more-info .msg { margin: 4px 0; }
.outages { margin: 4px 0; padding-left: 1.2em; }
details.rest > summary { cursor: pointer; padding: 4px 0; min-height: 28px; } details.rest > summary h2 { display: inline; }
.symbols { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
.symbols li { background: #fff; border: 1px solid #e3e3e3; border-radius: 6px; padding: 4px 8px; font-size: .9rem; }
.timeline { list-style: none; padding: 0; margin: 0; border-left: 2px solid #ddd; }
.timeline li { padding: 3px 0 3px 10px; font-size: .9rem; }
.timeline li.closed time::before { content: "● "; color: #c62828; } .timeline li.reopened time::before { content: "● "; color: #2da44e; } .timeline li.change time::before { content: "● "; color: #888; }
.timeline time { color: #555; font-variant-numeric: tabular-nums; }
.banner { background: #fff8e1; border: 1px solid #f0d48a; border-radius: 6px; padding: 2px 10px 8px; margin: 10px 0; }
.notices { list-style: none; padding: 0; margin: 0; font-size: .9rem; }
.notices li { padding: 3px 0; } .notices li.ongoing > b { color: #c62828; } .notices li.scheduled > b { color: #8a5300; }
.notices time { font-variant-numeric: tabular-nums; }
@media (max-width: 720px) {
  body { padding: 8px; }
  details.net > summary { grid-template-columns: 1fr auto; }
  details.net > summary .st { grid-column: 1 / -1; }
  details.net > summary .bars { grid-column: 1 / -1; grid-row: 3; }
  details.net > summary .ratio { grid-row: 1; grid-column: 2; }
  .scroll { overflow: visible; }
  table, thead, tbody, tr, th, td { display: block; }
  thead { display: none; }
  table { background: none; }
  tr { background: #fff; border: 1px solid #e3e3e3; border-radius: 6px; margin-bottom: 4px; padding: 6px 8px; }
  td { display: inline; white-space: normal; border: 0; padding: 0 8px 0 0; }
  td.msg { display: block; min-width: 0; max-width: none; color: #333; }
  table.t-exchanges td:nth-child(3)::before { content: "coins poll: "; color: #555; }
  table.t-exchanges td:nth-child(4)::before { content: "tickers poll: "; color: #555; }
  table.t-exchanges td:nth-child(5)::before { content: "coins "; color: #555; }
  table.t-exchanges td:nth-child(6)::before { content: "networks "; color: #555; }
  table.t-exchanges td:nth-child(7)::before { content: "tickers "; color: #555; }
  table.t-exchanges td:nth-child(8)::before { content: "alerts "; color: #555; }
  table.t-disabled td:nth-child(4)::before { content: "deposits "; color: #555; }
  table.t-disabled td:nth-child(5)::before { content: "withdrawals "; color: #555; }
  table.t-disabled td:nth-child(6)::before { content: "since "; color: #555; }
  table.t-changes td:nth-child(5)::before { content: "before: "; color: #555; }
  table.t-changes td:nth-child(6)::before { content: "after: "; color: #555; }
}
`;

export const STATUS_JS = `'use strict';
(function () {
  var q = document.getElementById('q');
  var form = q && q.form;
  var typed = q ? q.value : '';
  function apply() {
    var words = q.value.toLowerCase().split(/\\s+/).filter(function (w) { return w !== ''; });
    var rows = document.querySelectorAll('[data-k]');
    for (var i = 0; i < rows.length; i++) {
      var key = rows[i].getAttribute('data-k');
      rows[i].hidden = !words.every(function (w) { return key.indexOf(w) >= 0; });
    }
    var more = document.getElementById('rest');
    if (more && words.length > 0) more.open = true;
  }
  if (q) q.addEventListener('input', apply);
  // "Show all" stays open across the refresh (a reload would fold it again).
  var rest = document.getElementById('rest');
  var store = null;
  try { store = window.sessionStorage; } catch (e) { store = null; }
  if (rest && store) {
    if (store.getItem('spotwatch.rest') === 'open') rest.open = true;
    rest.addEventListener('toggle', function () { store.setItem('spotwatch.rest', rest.open ? 'open' : 'closed'); });
  }
  var sort = form && form.querySelector('select[name=sort]');
  if (sort) sort.addEventListener('change', function () { form.submit(); });
  // Refresh while the page is visible and nobody is reading an opened network or typing. This
  // timer runs in the reader's browser: the daemon's scheduler (lib/scheduler.ts) is not there.
  setInterval(function () {
    if (document.hidden || document.querySelector('details.net[open]')) return;
    if (q && (document.activeElement === q || q.value !== typed)) return;
    location.reload();
  }, 10000);
})();
`;

/** The page's icon: a green dot (an icon of our own, so the browser asks for no /favicon.ico). */
export const STATUS_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#2da44e"/></svg>';
