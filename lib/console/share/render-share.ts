import type { TCase, TCaseDelivery } from '../investigation/case-types';
import { RECONCILIATION_LABELS } from '../timeline/reconcile';
import { formatMoney } from '@/lib/money';
import { formatUtcLabel } from '@/lib/console/format';

// The page a share link opens: the case read-only, as plain server-made HTML (no script, no
// buttons, nothing to act with), every value escaped. The case given here is already masked
// (viewer-redaction.ts). Pure, so unit-tested.

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

// Light, or dark when the reader's system asks for it (the console's own palette, app/theme.css).
const STYLE = `:root{color-scheme:light dark;--bg:#f8fafc;--fg:#0f172a;--card:#fff;--line:#e2e8f0;--rule:#f1f5f9;--muted:#475569;--ok:#d1fae5;--bad:#ffe4e6}
@media (prefers-color-scheme:dark){:root{--bg:#020617;--fg:#e2e8f0;--card:#0f172a;--line:#334155;--rule:#1e293b;--muted:#a3b1c6;--ok:#064e3b;--bad:#4c0519}}
body{font:14px/1.5 system-ui,sans-serif;margin:0;background:var(--bg);color:var(--fg)}main{max-width:960px;margin:0 auto;padding:24px 16px}
header{background:#0f172a;color:#fff;padding:12px 16px;border-bottom:1px solid var(--line)}h1{font-size:20px;margin:4px 0;word-break:break-all}h2{font-size:16px;margin:24px 0 8px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px;margin:8px 0}.muted{color:var(--muted);font-size:12px}
.badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;background:var(--line)}.ok{background:var(--ok)}.bad{background:var(--bad)}
table{border-collapse:collapse;width:100%;font-size:12px}.scroll{overflow-x:auto}td,th{text-align:left;padding:4px 6px;border-top:1px solid var(--rule);vertical-align:top}code{font-size:12px;word-break:break-all}
.scroll:focus-visible{outline:2px solid #6366f1;outline-offset:2px}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><header><strong>Giving Connect Console</strong> · shared case, read-only</header><main>${body}</main></body></html>`;
}

function delivery(d: TCaseDelivery): string {
  const tone = d.reconciliation === 'delivered-and-received' ? 'ok' : 'bad';
  const attempts = d.attempts
    .map(
      (a) =>
        `<tr><td>${escapeHtml(formatUtcLabel(a.timestamp))}</td><td>${escapeHtml(a.status)}</td><td>${escapeHtml(a.responseStatusCode || '—')}</td><td>${escapeHtml(a.responseDurationMs)} ms</td><td>${escapeHtml(a.triggerType)}</td></tr>`,
    )
    .join('');
  const receipts = d.receipts
    .map(
      (r) =>
        `<tr><td>${escapeHtml(formatUtcLabel(r.receivedAt))}</td><td>${escapeHtml(r.verdict)}${r.duplicate ? ' (duplicate)' : ''}</td><td>${escapeHtml(r.responseStatus)}</td><td>${escapeHtml(r.verdictReason)}</td></tr>`,
    )
    .join('');
  return `<div class="card" data-testid="share-delivery"><div><strong>${escapeHtml(d.webhook.description || d.webhook.id)}</strong> <span class="muted"><code>${escapeHtml(d.webhook.url)}</code></span></div>
<div><span class="badge ${tone}">${escapeHtml(RECONCILIATION_LABELS[d.reconciliation] ?? d.reconciliation)}</span> <span class="muted">${escapeHtml(d.status ?? 'not queued')} · ${escapeHtml(d.attemptCount)} attempt(s)${d.nextAttempt ? ` · next ${escapeHtml(formatUtcLabel(d.nextAttempt))}` : ''}</span></div>
<p>${escapeHtml(d.explanation)}</p>
${attempts ? `<div class="scroll" tabindex="0" role="region" aria-label="Attempts"><table><thead><tr><th>Attempt at</th><th>Outcome</th><th>HTTP</th><th>Took</th><th>Trigger</th></tr></thead><tbody>${attempts}</tbody></table></div>` : '<p class="muted">No attempts.</p>'}
${receipts ? `<div class="scroll" tabindex="0" role="region" aria-label="Arrivals"><table><thead><tr><th>Received at</th><th>Signature</th><th>Answered</th><th>Why</th></tr></thead><tbody>${receipts}</tbody></table></div>` : '<p class="muted">Nothing arrived at this console’s receiver.</p>'}</div>`;
}

/** The shared case: what was searched, the grants (masked), each message at each webhook with its verdicts and explanation. */
export function renderSharedCase(c: TCase, link: { ticket: string; expiresAt: Date; createdBy: string }): string {
  const grants = c.grants
    .map(
      (g) =>
        `<tr><td><code>${escapeHtml(g.trackingId || g.id)}</code></td><td>${escapeHtml(g.status)}</td><td>${escapeHtml(formatMoney(g.amount))}</td><td>${escapeHtml(g.fundName)}</td><td>${escapeHtml(`${g.firstName} ${g.lastName}`)} · ${escapeHtml(g.email)}</td><td>${escapeHtml(formatUtcLabel(g.createdAt))}</td></tr>`,
    )
    .join('');
  const messages = c.messages
    .map(
      (m) =>
        `<section><h2>${escapeHtml(m.eventType)} <span class="muted"><code>${escapeHtml(m.id)}</code> · ${escapeHtml(formatUtcLabel(m.timestamp))}${m.test ? ' · test event' : ''}</span></h2>${m.deliveries.map(delivery).join('')}${
          m.otherReceipts.length ? `<p class="muted">Also arrived at ${m.otherReceipts.length} other receiver(s) of this console.</p>` : ''
        }</section>`,
    )
    .join('');
  const body = `<p class="muted">${link.ticket ? `Ticket ${escapeHtml(link.ticket)} · ` : ''}shared by ${escapeHtml(link.createdBy)} · this link stops working at ${escapeHtml(formatUtcLabel(link.expiresAt))}</p>
<h1 data-testid="share-query">${escapeHtml(c.query)}</h1>
${c.notes.map((n) => `<div class="card muted">${escapeHtml(n)}</div>`).join('')}
${grants ? `<h2>Grants</h2><div class="card"><div class="scroll" tabindex="0" role="region" aria-label="Grants"><table><thead><tr><th>Grant</th><th>Status</th><th>Amount</th><th>Fund</th><th>Donor</th><th>Created</th></tr></thead><tbody>${grants}</tbody></table></div></div>` : ''}
${messages || '<div class="card">No message of this account matches.</div>'}
<p class="muted">Donor details are masked and no secret is shown. Read at ${escapeHtml(formatUtcLabel(c.fetchedAt))}.</p>`;
  return page(`Shared case ${c.query}`, body);
}

/** The 410 page of a link that expired or was revoked (and the 404 of one that never was). */
export function renderGone(kind: 'gone' | 'unknown'): string {
  const text =
    kind === 'gone'
      ? 'This share link has expired or was revoked. Ask the person who sent it for a new one.'
      : 'This share link does not exist. Check that it was copied whole.';
  return page(
    'Share link',
    `<h1 data-testid="share-gone">${kind === 'gone' ? 'This link is no longer available' : 'No such link'}</h1><p>${escapeHtml(text)}</p>`,
  );
}
