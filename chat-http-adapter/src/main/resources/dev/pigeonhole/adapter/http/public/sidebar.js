// The sidebar's lists: the chats with their unread counts, who is online, the direct messages.

import { el, els } from './dom.js';
import { chatTitle, hue, membersLine, shortTime } from './format.js';

function avatar(name) {
  const node = el('span', { className: 'avatar', text: (name.match(/[A-Za-z0-9]/)?.[0] ?? '#').toUpperCase(), attrs: { 'aria-hidden': 'true' } });
  node.style.setProperty('--avatar-hue', String(hue(name)));
  return node;
}

function previewOf(message, me) {
  if (!message) return '';
  const who = message.sender === me ? 'You' : message.sender;
  return `${who}: ${message.message.replace(/\s+/g, ' ')}`.slice(0, 140);
}

function fillChatItem(li, chat, me, open, preview) {
  const title = chatTitle(chat, me);
  const button = el('button', { className: 'chat-button', attrs: { type: 'button' } }, [
    avatar(title),
    el('span', { className: 'chat-text' }, [
      el('span', { className: 'chat-name', text: title }),
      el('span', { className: 'chat-sub', text: preview || (/^\d+$/.test(chat.chatId) ? `#${chat.chatId}` : membersLine(chat, me, 4)) }),
    ]),
    chat.unread > 0
      ? el('span', { className: 'badge', attrs: { 'data-testid': 'chat-unread' } }, [
        document.createTextNode(chat.unread > 99 ? '99+' : String(chat.unread)),
        el('span', { className: 'visually-hidden', text: chat.unread === 1 ? ' unread message' : ' unread messages' }),
      ])
      : null,
  ]);
  if (open) button.setAttribute('aria-current', 'true');
  li.replaceChildren(button);
  li.classList.toggle('unread', chat.unread > 0);
  li.dataset.unread = String(chat.unread);
}

/**
 * Update the list in place: items are kept and only moved when the order changed, so a chat
 * button that has keyboard focus keeps it while counts tick.
 */
export function renderChatList(state) {
  const list = els.chatList;
  const existing = new Map([...list.children].map((li) => [li.dataset.chatId, li]));
  let cursor = list.firstElementChild;
  for (const chat of state.chats.values()) {
    let li = existing.get(chat.chatId);
    existing.delete(chat.chatId);
    const hadFocus = li?.contains(document.activeElement);
    if (!li) {
      li = el('li', { className: 'chat-item', attrs: { 'data-chat-id': chat.chatId, 'data-testid': 'chat-item' } });
    }
    const preview = previewOf(state.history.lastMessage(chat.chatId), state.me);
    const signature = JSON.stringify([chat.members, chat.unread, state.openChatId === chat.chatId, preview]);
    if (li.dataset.signature !== signature) {
      li.dataset.signature = signature;
      fillChatItem(li, chat, state.me, state.openChatId === chat.chatId, preview);
      if (hadFocus) li.querySelector('button').focus();
    }
    if (li !== cursor) list.insertBefore(li, cursor);
    else cursor = cursor.nextElementSibling;
  }
  for (const li of existing.values()) li.remove();
  els.chatListEmpty.hidden = state.chats.size > 0;
  const total = state.totalUnread();
  document.title = total > 0 ? `(${total}) Pigeonhole` : 'Pigeonhole';
}

export function renderOnline(state) {
  const users = [...state.online].sort((a, b) => (a === state.me ? -1 : b === state.me ? 1 : a.localeCompare(b)));
  els.onlineList.replaceChildren(...users.map((user) => el('li', {
    className: 'online-item',
    attrs: { 'data-testid': 'online-user', 'data-user': user },
  }, [
    el('span', { className: 'presence-dot', attrs: { 'aria-hidden': 'true' } }),
    el('span', { className: 'online-name', text: user }),
    user === state.me ? el('span', { className: 'muted', text: ' (you)' }) : null,
  ])));
  els.onlineCount.textContent = users.length ? `(${users.length})` : '';
}

/** The direct messages this tab has shown, oldest first. */
export function renderMailbox(state) {
  const messages = state.direct.list();
  els.mailboxList.replaceChildren(...messages.map((message) => {
    const when = new Date(message.ts);
    return el('li', {
      className: 'direct-message',
      attrs: { 'data-testid': 'direct-message', 'data-message-id': String(message.id), 'data-sender': message.sender },
    }, [
      el('p', { className: 'direct-sender', text: message.sender }),
      el('p', { className: 'direct-text', text: message.message }),
      Number.isNaN(when.getTime()) ? null
        : el('time', { className: 'message-time', text: shortTime(when), attrs: { datetime: when.toISOString() } }),
    ]);
  }));
  els.mailboxEmpty.hidden = messages.length > 0;
}
