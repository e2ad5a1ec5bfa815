/**
 * The hosted checkout page's own look and its script. The script follows the checkout and the
 * sandbox clock live by polling GET /pay/{id}/status (every 700 ms): the countdown runs from the
 * sandbox's `now` (not the browser's clock) and stands still while the sandbox clock is frozen.
 * Plain ES2020 in a string: the page loads nothing from anywhere (the app works offline).
 */

export const HOSTED_CSS = `
.page.narrow{max-width:520px}
.checkout{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1.08fr);background:var(--panel);border:1px solid var(--line);border-radius:16px;box-shadow:0 1px 2px rgba(16,24,40,.04),0 16px 40px -16px rgba(16,24,40,.16);overflow:hidden}
.checkout.single{grid-template-columns:minmax(0,1fr)}
.summary{padding:32px;background:#fbfcfd;border-right:1px solid var(--line);min-width:0;display:flex;flex-direction:column;gap:10px}
.pay,.result{padding:32px;min-width:0}
.eyebrow{font-size:13px;color:var(--muted);font-weight:500}
.title{font-size:20px;font-weight:600;line-height:1.3}
.desc{color:var(--muted)}
.amount{font-size:36px;font-weight:650;letter-spacing:-.02em;font-variant-numeric:tabular-nums;line-height:1.15;margin:6px 0 2px}
.meta{display:flex;flex-wrap:wrap;align-items:center;gap:8px 14px}
.countdown{font-size:14px;color:var(--muted);font-variant-numeric:tabular-nums}
.countdown[data-urgent=true]{color:var(--warn);font-weight:600}
.progress{margin-top:8px}
.summary .meta,.summary .progress{margin-bottom:6px}
.bar{height:8px;border-radius:999px;background:#e9edf2;overflow:hidden}
.fill{height:100%;width:0;border-radius:999px;background:var(--accent);transition:width .4s ease}
.progress[data-tone=warn] .fill{background:#d98a1c}
.progress-row{display:flex;flex-wrap:wrap;justify-content:space-between;gap:4px 12px;margin-top:8px;font-size:14px;font-variant-numeric:tabular-nums}
.progress-row span:first-child{font-weight:600}
.details{margin:auto 0 0;padding-top:14px;border-top:1px solid var(--line);display:grid;gap:6px}
.details div{display:flex;justify-content:space-between;align-items:baseline;gap:16px;min-width:0}
.details dt{color:var(--muted);flex:none}
.details dd{margin:0;text-align:right;min-width:0;word-break:break-all}
.details .mono{font-size:12px}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.section-title{font-size:15px;font-weight:600;margin-bottom:14px}
.tabs{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:18px}
.tab{border:1px solid var(--line);background:var(--panel);border-radius:999px;padding:6px 12px;font-size:13px;font-weight:500;color:var(--muted);min-height:34px}
.tab[aria-selected=true]{border-color:var(--accent);background:var(--accent-soft);color:var(--accent)}
.chain-panel{display:flex;flex-direction:column;align-items:center;gap:18px}
.chain-panel[hidden]{display:none}
.qr{flex:none;width:176px;height:176px;padding:6px;border:1px solid var(--line);border-radius:14px;background:#fff}
.qr svg{display:block;width:100%;height:100%}
.fields{width:100%;display:flex;flex-direction:column;gap:12px}
.field-label{font-size:12px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em;margin-bottom:6px}
.field-row{display:flex;align-items:center;gap:8px;border:1px solid var(--line);border-radius:10px;padding:6px 6px 6px 12px;background:#fff;min-width:0}
.field-value{flex:1;min-width:0;word-break:break-all;font-weight:600;font-variant-numeric:tabular-nums}
code.field-value{font-size:13px;font-weight:500}
.copy{flex:none;border:1px solid var(--line);background:var(--bg);border-radius:8px;padding:6px 12px;font-size:13px;font-weight:600;min-height:34px;min-width:70px}
.copy[data-copied=true]{color:var(--ok);border-color:#b7e2cb;background:var(--ok-soft)}
.hint{font-size:13px;color:var(--muted)}
.or{display:flex;align-items:center;gap:12px;color:var(--faint);font-size:13px;margin:20px 0}
.or::before,.or::after{content:"";flex:1;height:1px;background:var(--line)}
.btn.wide{width:100%}
.result{display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center;gap:10px;min-height:280px}
.result[hidden]{display:none}
.result-icon{width:60px;height:60px;border-radius:50%;display:grid;place-items:center;margin-bottom:6px}
.result-icon svg{width:30px;height:30px}
.result[data-tone=ok] .result-icon{background:var(--ok-soft);color:var(--ok)}
.result[data-tone=muted] .result-icon{background:#eef1f4;color:var(--muted)}
.result[data-tone=bad] .result-icon{background:var(--bad-soft);color:var(--bad)}
.result h2{font-size:21px;font-weight:650}
.result p{color:var(--muted);max-width:34ch}
.result .big{color:var(--ink);font-size:17px;font-weight:600;font-variant-numeric:tabular-nums}
.tools{margin-top:16px;border:1px dashed #c3cad4;border-radius:14px;padding:16px 18px;display:flex;flex-direction:column;gap:10px;background:rgba(255,255,255,.55)}
.tools-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 10px}
.tools-row{display:flex;flex-wrap:wrap;gap:10px;align-items:center}
.tools-row[hidden]{display:none}
.partial{display:flex;flex-wrap:wrap;gap:8px;align-items:center;flex:1 1 280px;min-width:0}
.partial input{flex:1 1 120px;min-width:0;min-height:44px;border:1px solid var(--line);border-radius:10px;padding:8px 12px;background:#fff}
.unit{font-size:13px;color:var(--muted);font-weight:600}
.tools-message:empty{display:none}
.tools-message[data-tone=bad]{color:var(--bad)}
.tools-message[data-tone=ok]{color:var(--ok)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.card-fake{margin:18px 0;padding:18px;border-radius:12px;background:linear-gradient(135deg,#2d3250,#4f46e5);color:#fff;display:flex;justify-content:space-between;flex-wrap:wrap;gap:8px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px}
.actions{display:flex;flex-wrap:wrap;gap:10px;margin-bottom:10px}
@media (max-width:760px){
.checkout{grid-template-columns:minmax(0,1fr)}
.summary{border-right:0;border-bottom:1px solid var(--line);padding:22px 20px}
.pay,.result{padding:22px 20px}
.amount{font-size:30px}
.result{min-height:220px}
}
`;

export const HOSTED_SCRIPT = `
(function () {
  'use strict';
  var S = JSON.parse(document.getElementById('checkout-state').textContent);
  var one = function (id) { return document.querySelector('[data-testid="' + id + '"]'); };
  var all = function (selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); };

  // ---- the sandbox clock, as last read from the server ----
  var clock = { now: Date.parse(S.now), frozen: S.frozen, at: performance.now() };
  var sandboxNow = function () { return clock.frozen ? clock.now : clock.now + (performance.now() - clock.at); };

  // ---- formatting: the same rules as formatMinor in server/http/pages/html.ts ----
  function number(amount) {
    var abs = Math.abs(Math.trunc(amount));
    var whole = String(Math.floor(abs / 1000000)).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');
    var fraction = String(abs % 1000000).padStart(6, '0').replace(/0{1,4}$/, '');
    return (amount < 0 ? '-' : '') + whole + '.' + fraction.padEnd(2, '0');
  }
  function money(amount) { return number(amount) + ' ' + S.currency; }
  function two(n) { return n < 10 ? '0' + n : String(n); }
  function duration(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d > 0) return d + 'd ' + h + 'h ' + two(m) + 'm';
    if (h > 0) return h + 'h ' + two(m) + 'm ' + two(s % 60) + 's';
    return m + 'm ' + two(s % 60) + 's';
  }
  function when(iso) {
    return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
  }
  /** "4.00" → 4000000; null when it is not a positive amount with at most 6 decimals */
  function parseAmount(text) {
    var m = /^\\s*(\\d{1,9})(?:[.,](\\d{1,6}))?\\s*$/.exec(text);
    if (!m) return null;
    var value = Number(m[1]) * 1000000 + Number((m[2] || '').padEnd(6, '0'));
    return value > 0 ? value : null;
  }

  // ---- what the customer sees ----
  var PAID = ['paid', 'completed', 'partially_refunded', 'refunded'];
  function phase() {
    if (S.gone) return 'gone';
    if (S.status === 'active') return sandboxNow() >= Date.parse(S.expires_at) ? 'expired' : 'open';
    if (PAID.indexOf(S.status) >= 0) return 'paid';
    return S.status === 'cancelled' ? 'cancelled' : 'expired';
  }
  function received() { return S.status === 'active' ? S.received_amount : (S.paid_amount != null ? S.paid_amount : S.received_amount); }
  function left() { return S.amount === null ? null : Math.max(0, S.amount - S.received_amount); }
  var LABELS = {
    paid: ['Paid', 'ok'], completed: ['Paid', 'ok'], partially_refunded: ['Partially refunded', 'ok'],
    refunded: ['Refunded', 'muted'], expired: ['Expired', 'muted'], partial: ['Expired, part paid', 'warn'],
    cancelled: ['Cancelled', 'bad']
  };
  function label(p) {
    if (p === 'gone') return ['Unavailable', 'muted'];
    if (S.status === 'active') {
      if (p === 'expired') return ['Expired', 'muted'];
      return S.received_amount > 0 ? ['Partially paid', 'warn'] : ['Awaiting payment', ''];
    }
    return LABELS[S.status] || [S.status, 'muted'];
  }

  var ICONS = {
    ok: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"><path d="M5 12.5l4.5 4.5L19 7.5"/></svg>',
    muted: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/></svg>',
    bad: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"><path d="M7 7l10 10M17 7L7 17"/></svg>'
  };
  function result(p) {
    var tone, title, lines = [];
    if (p === 'paid') {
      tone = 'ok'; title = S.status === 'refunded' ? 'Payment refunded' : 'Payment received';
      lines.push(['big', money(received())]);
      lines.push(['', 'Paid to ' + S.merchant + (S.paid_at ? ' on ' + when(S.paid_at) : '') + '.']);
      if (S.refunded_amount > 0) lines.push(['', money(S.refunded_amount) + ' refunded.']);
      if (S.status === 'completed') lines.push(['', 'Confirmed on chain. You can close this page.']);
      else if (S.status === 'paid') lines.push(['', 'Waiting for network confirmations. You can close this page.']);
    } else if (p === 'cancelled') {
      tone = 'bad'; title = 'This checkout was cancelled';
      lines.push(['', S.merchant + ' cancelled this payment request. No payment can be made to it.']);
    } else if (p === 'gone') {
      tone = 'muted'; title = 'This checkout no longer exists';
      lines.push(['', 'The sandbox was reset or the link is wrong.']);
    } else {
      tone = 'muted'; title = 'This checkout has expired';
      // Expired early through the control API, expires_at is still ahead: no date then.
      var on = Date.parse(S.expires_at) <= sandboxNow() ? ' on ' + when(S.expires_at) : '';
      lines.push(['', 'It expired' + on + '. No payment can be made to it any more.']);
      if (received() > 0 && S.amount !== null) lines.push(['big', number(received()) + ' of ' + money(S.amount) + ' arrived in time']);
      lines.push(['', 'Ask ' + S.merchant + ' for a new payment link.']);
    }
    var box = one('result');
    box.replaceChildren();
    box.dataset.tone = tone;
    box.dataset.phase = p;
    var icon = document.createElement('div');
    icon.className = 'result-icon';
    icon.innerHTML = ICONS[tone];
    var h = document.createElement('h2');
    h.textContent = title;
    h.dataset.testid = 'result-title';
    box.append(icon, h);
    lines.forEach(function (line) {
      var el = document.createElement('p');
      el.className = line[0];
      el.textContent = line[1];
      box.append(el);
    });
    if (p === 'paid' && S.success_url) {
      var back = document.createElement('a');
      back.className = 'btn';
      back.href = S.success_url;
      back.textContent = 'Return to ' + S.merchant;
      box.append(back);
    }
    box.hidden = false;
  }

  var shown = '';
  function render() {
    var p = phase();
    document.body.dataset.phase = p;
    var pill = one('status'), l = label(p);
    pill.textContent = l[0];
    pill.className = 'pill ' + l[1];
    pill.dataset.status = S.status;

    var countdown = one('countdown');
    if (p === 'open') {
      var ms = Date.parse(S.expires_at) - sandboxNow();
      countdown.textContent = 'Expires in ' + duration(ms);
      countdown.dataset.remaining = String(Math.max(0, Math.floor(ms / 1000)));
      countdown.dataset.frozen = String(clock.frozen);
      countdown.dataset.urgent = String(ms < 300000);
      countdown.hidden = false;
    } else {
      countdown.hidden = true;
      countdown.textContent = '';
    }

    var progress = one('progress'), got = received();
    if (S.amount !== null && got > 0 && (p === 'open' || p === 'expired')) {
      progress.hidden = false;
      progress.dataset.tone = p === 'open' ? '' : 'warn';
      one('progress-fill').style.width = Math.min(100, (got / S.amount) * 100).toFixed(1) + '%';
      one('progress-text').textContent = number(got) + ' of ' + money(S.amount) + (p === 'open' ? ' paid' : ' received');
      one('progress-left').textContent = p === 'open' ? money(left()) + ' left to pay' : '';
    } else {
      progress.hidden = true;
    }

    var rest = left();
    all('[data-pay-amount]').forEach(function (el) { el.textContent = rest === null ? 'Any amount' : money(rest); });
    all('[data-copy-amount]').forEach(function (el) { el.dataset.copy = rest === null ? '' : number(rest).replace(/,/g, ''); });

    var clockLine = one('sandbox-clock');
    clockLine.textContent = 'Sandbox clock: ' + new Date(sandboxNow()).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' + (clock.frozen ? ' · frozen' : '');
    clockLine.dataset.frozen = String(clock.frozen);

    if (p !== 'open') {
      // No way to pay what cannot be paid: the options go, for good (a checkout never reopens).
      var options = one('payment-options');
      if (options) options.remove();
      one('simulate-controls').hidden = true;
      var key = p + '|' + S.status + '|' + got + '|' + S.refunded_amount;
      if (key !== shown) { shown = key; result(p); }
    }
  }

  // ---- live: the server's state every 700 ms (and at once after a simulated payment) ----
  var timer = 0, inflight = false, again = false, stopped = false;
  function apply(state) {
    var serverNow = Date.parse(state.now);
    // Re-anchored when frozen or resumed, or when off by over a second (an advance): small network
    // jitter is ignored so the seconds never step back.
    if (state.frozen || state.frozen !== clock.frozen || Math.abs(serverNow - sandboxNow()) > 1000) {
      clock = { now: serverNow, frozen: state.frozen, at: performance.now() };
    }
    for (var k in state) if (k !== 'now' && k !== 'frozen') S[k] = state[k];
    render();
  }
  function poll() {
    if (stopped) return;
    if (inflight) { again = true; return; }
    clearTimeout(timer);
    inflight = true;
    fetch('/pay/' + encodeURIComponent(S.id) + '/status', { cache: 'no-store', headers: { accept: 'application/json' } })
      .then(function (r) {
        if (r.status === 404) { S.gone = true; stopped = true; render(); return null; }
        return r.ok ? r.json().then(apply) : null;
      })
      .catch(function () { /* the sandbox is away for a moment: keep what is shown, ask again */ })
      .then(function () {
        inflight = false;
        if (stopped) return;
        if (again) { again = false; poll(); } else timer = setTimeout(poll, 700);
      });
  }

  // ---- chains ----
  var selected = S.chains.length ? S.chains[0].chain : null;
  all('[data-chain-tab]').forEach(function (tab) {
    tab.addEventListener('click', function () {
      selected = tab.dataset.chainTab;
      all('[data-chain-tab]').forEach(function (t) { t.setAttribute('aria-selected', String(t === tab)); });
      all('[data-chain-panel]').forEach(function (panel) { panel.hidden = panel.dataset.chainPanel !== selected; });
    });
  });

  // ---- copy buttons ----
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    return Promise.resolve(fallbackCopy(text));
  }
  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    try { document.execCommand('copy'); } catch (e) { /* nothing more to try */ }
    area.remove();
  }
  all('[data-copy], [data-copy-amount]').forEach(function (button) {
    button.addEventListener('click', function () {
      copyText(button.dataset.copy || '').then(function () {
        button.textContent = 'Copied';
        button.dataset.copied = 'true';
        setTimeout(function () { button.textContent = 'Copy'; button.dataset.copied = 'false'; }, 1500);
      });
    });
  });

  // ---- sandbox tools: a wallet payment through the control API ----
  var message = one('simulate-message');
  function say(text, tone) { message.textContent = text; message.dataset.tone = tone || ''; }
  function simulate(amount) {
    var body = S.method === 'fiat' ? { method: 'fiat' } : { method: 'crypto', chain: selected };
    if (amount !== undefined) body.amount = amount;
    var buttons = all('[data-testid^="simulate-"]');
    buttons.forEach(function (b) { b.disabled = true; });
    say('Sending a test payment…');
    return fetch('/sandbox/checkouts/' + encodeURIComponent(S.id) + '/payments', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) { say(j.error || 'The sandbox refused the payment (' + r.status + ').', 'bad'); return; }
        var on = j.payment && j.payment.chain ? ' on ' + ((S.chains.filter(function (c) { return c.chain === j.payment.chain; })[0] || { name: j.payment.chain }).name) : '';
        say(money(j.payment.amount) + ' sent' + on + '.', 'ok');
        one('simulate-amount').value = '';
      });
    }).catch(function () {
      say('The sandbox did not answer.', 'bad');
    }).then(function () {
      buttons.forEach(function (b) { b.disabled = false; });
      poll();
    });
  }
  var full = one('simulate-full');
  if (full) full.addEventListener('click', function () { simulate(); });
  function partial() {
    var amount = parseAmount(one('simulate-amount').value);
    if (amount === null) { say('Enter an amount in ' + S.currency + ', like 4.00 (up to 6 decimals).', 'bad'); return; }
    simulate(amount);
  }
  one('simulate-partial').addEventListener('click', partial);
  one('simulate-amount').addEventListener('keydown', function (event) { if (event.key === 'Enter') partial(); });

  render();
  setInterval(render, 250);
  timer = setTimeout(poll, 700);
})();
`;
