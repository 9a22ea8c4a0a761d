// The open chat's message list: each message in id order, runs from one sender grouped, and the
// scroll kept where the reader wants it.

import { el, els } from './dom.js';
import { fullTime, shortTime } from './format.js';

const GROUP_WINDOW_MS = 5 * 60_000;

function messageItem(message, me) {
  const mine = message.sender === me;
  const when = new Date(message.ts);
  const valid = !Number.isNaN(when.getTime());
  const li = el('li', {
    className: mine ? 'message mine' : 'message',
    attrs: { 'data-message-id': String(message.id), 'data-testid': 'message', 'data-sender': message.sender },
  }, [
    el('p', { className: 'message-sender', text: mine ? 'You' : message.sender }),
    el('div', { className: 'bubble' }, [
      el('p', { className: 'message-text', text: message.message }),
      el('time', {
        className: 'message-time',
        text: valid ? shortTime(when) : '',
        attrs: valid ? { datetime: message.ts, title: fullTime.format(when) } : {},
      }),
    ]),
  ]);
  li.dataset.ts = valid ? String(when.getTime()) : '0';
  return li;
}

/** A run of messages from one sender shows the name once; screen readers still hear it on each. */
export function regroup(li) {
  if (!li || !li.classList.contains('message')) return;
  const prev = li.previousElementSibling;
  const continued = prev?.classList.contains('message')
      && prev.dataset.sender === li.dataset.sender
      && Number(li.dataset.ts) - Number(prev.dataset.ts) < GROUP_WINDOW_MS;
  li.classList.toggle('continued', Boolean(continued));
}

export function isNearBottom() {
  const s = els.scroller;
  return s.scrollHeight - s.scrollTop - s.clientHeight < 80;
}

export function scrollToBottom() {
  els.scroller.scrollTop = els.scroller.scrollHeight;
  els.jumpLatest.hidden = true;
}

/**
 * Put messages in id order wherever they belong (new ones at the end, older pages at the top),
 * ahead of any sends still waiting for the server.
 * @param {{ scroll?: 'auto' | 'bottom' | 'keep', gapBefore?: boolean }} options
 */
export function insertMessages(messages, me, { scroll = 'auto', gapBefore = false } = {}) {
  if (!messages.length) return;
  const list = els.messageList;
  const stick = isNearBottom();
  const heightBefore = els.scroller.scrollHeight;
  const topBefore = els.scroller.scrollTop;
  let first = true;
  for (const message of messages) {
    const item = messageItem(message, me);
    let before = null;
    for (const node of list.children) {
      if (node.classList.contains('pending') || (node.dataset.messageId && Number(node.dataset.messageId) > message.id)) {
        before = node;
        break;
      }
    }
    if (first && gapBefore) {
      list.insertBefore(el('li', {
        className: 'history-gap',
        text: 'Some messages here were read everywhere and are no longer kept.',
        attrs: { 'data-testid': 'history-gap' },
      }), before);
    }
    first = false;
    list.insertBefore(item, before);
    regroup(item);
    regroup(item.nextElementSibling);
  }
  if (scroll === 'bottom') {
    scrollToBottom();
  } else if (scroll === 'keep') {
    // Older messages went in above: hold what the reader was looking at in place.
    els.scroller.scrollTop = topBefore + (els.scroller.scrollHeight - heightBefore);
  } else if (stick || messages.some((m) => m.sender === me)) {
    scrollToBottom();
  } else {
    els.jumpLatest.hidden = false;
  }
}

export function clearMessages() {
  els.messageList.replaceChildren();
}
