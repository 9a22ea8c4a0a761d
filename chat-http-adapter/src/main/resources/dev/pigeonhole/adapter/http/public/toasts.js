// What the page says without being asked: new messages read out to screen readers, and notices.

import { el, els } from './dom.js';

export function announce(text) {
  // A fresh node per announcement, so the same words twice are still read twice.
  const line = el('p', { text });
  els.announcer.append(line);
  setTimeout(() => line.remove(), 10_000);
}

/** Non-blocking notices; errors stay a little longer and can be dismissed by hand. */
export function toast(text, kind = 'info') {
  const item = el('div', { className: `toast ${kind}`, attrs: { 'data-testid': 'toast', 'data-kind': kind } }, [
    el('p', { className: 'toast-text', text }),
  ]);
  const close = el('button', { className: 'toast-close', attrs: { type: 'button', 'aria-label': 'Dismiss' }, text: '×' });
  close.addEventListener('click', () => item.remove());
  item.append(close);
  els.toasts.append(item);
  while (els.toasts.children.length > 4) els.toasts.firstElementChild.remove();
  setTimeout(() => item.remove(), kind === 'error' ? 8_000 : 5_000);
}
