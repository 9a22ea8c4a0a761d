// Sends in flight, at the end of the message list until the server has them.

import { el, els } from './dom.js';
import { regroup, scrollToBottom } from './messages.js';

function pendingNode(key) {
  return els.messageList.querySelector(`li.pending[data-pending-key="${CSS.escape(key)}"]`);
}

export function addPendingSend(send, me) {
  const li = el('li', {
    className: 'message mine pending',
    attrs: { 'data-pending-key': send.key, 'data-testid': 'message-pending', 'data-sender': me },
  }, [
    el('p', { className: 'message-sender', text: 'You' }),
    el('div', { className: 'bubble' }, [
      el('p', { className: 'message-text', text: send.text }),
      el('p', { className: 'message-status', attrs: { 'data-testid': 'message-status' } }),
    ]),
  ]);
  li.dataset.ts = String(Date.now());
  els.messageList.append(li);
  regroup(li);
  setPendingStatus(send, send.status);
  scrollToBottom();
}

/** 'sending', 'retrying' or 'failed'; a failed send offers to try again with the same key. */
export function setPendingStatus(send, status) {
  const li = pendingNode(send.key);
  if (!li) return;
  li.dataset.status = status;
  const line = li.querySelector('.message-status');
  if (status === 'failed') {
    line.replaceChildren(
      el('span', { text: 'Not sent. ' }),
      el('button', { className: 'link-button', text: 'Try again', attrs: { type: 'button', 'data-action': 'retry', 'data-key': send.key } }),
      el('span', { text: ' · ' }),
      el('button', { className: 'link-button', text: 'Discard', attrs: { type: 'button', 'data-action': 'discard', 'data-key': send.key } }),
    );
  } else {
    line.textContent = status === 'retrying' ? 'Sending… (retrying)' : 'Sending…';
  }
}

export function removePendingSend(key) {
  const li = pendingNode(key);
  const next = li?.nextElementSibling;
  li?.remove();
  regroup(next);
}
