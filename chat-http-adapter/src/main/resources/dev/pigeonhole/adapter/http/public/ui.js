// Everything that touches the DOM. User content only ever goes in through textContent or
// attributes set one by one, so a message can never become markup.

const $ = (id) => document.getElementById(id);

export const els = {
  signinView: $('signin-view'),
  signinForm: $('signin-form'),
  signinName: $('signin-name'),
  signinButton: $('signin-button'),
  signinError: $('signin-error'),
  app: $('app-view'),
  meName: $('me-name'),
  signout: $('signout-button'),
  connection: $('connection-state'),
  chatList: $('chat-list'),
  chatListEmpty: $('chat-list-empty'),
  newChatButton: $('new-chat-button'),
  mailboxList: $('mailbox-list'),
  mailboxEmpty: $('mailbox-empty'),
  onlineList: $('online-list'),
  onlineCount: $('online-count'),
  main: $('main'),
  welcomeView: $('welcome-view'),
  newChatView: $('new-chat-view'),
  newChatForm: $('new-chat-form'),
  newChatMembers: $('new-chat-members'),
  newChatId: $('new-chat-id'),
  newChatOpen: $('new-chat-open'),
  newChatMessage: $('new-chat-message'),
  newChatSubmit: $('new-chat-submit'),
  newChatError: $('new-chat-error'),
  joinForm: $('join-chat-form'),
  joinId: $('join-chat-id'),
  joinSubmit: $('join-chat-submit'),
  joinError: $('join-chat-error'),
  chatView: $('chat-view'),
  chatTitle: $('chat-title'),
  chatMembers: $('chat-members'),
  chatAccess: $('chat-access'),
  inviteForm: $('invite-form'),
  inviteUser: $('invite-user'),
  inviteSubmit: $('invite-submit'),
  inviteError: $('invite-error'),
  leaveButton: $('leave-chat-button'),
  scroller: $('scroller'),
  loadOlder: $('load-older-button'),
  historyNote: $('history-note'),
  messageList: $('message-list'),
  jumpLatest: $('jump-latest'),
  composer: $('composer'),
  messageInput: $('message-input'),
  sendButton: $('send-button'),
  leaveDialog: $('leave-dialog'),
  leaveDialogText: $('leave-dialog-text'),
  announcer: $('announcer'),
  toasts: $('toasts'),
};

function el(tag, { className, text, attrs } = {}, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

// --- names and times -----------------------------------------------------------------------

/**
 * Ids the server made up (22 random characters, or a number in the book's layout) say nothing,
 * so those chats are called after the people in them.
 */
function isMadeUp(chatId) {
  return /^\d+$/.test(chatId) || /^[0-9A-Za-z]{22}$/.test(chatId);
}

export function chatTitle(chat, me) {
  if (!isMadeUp(chat.chatId)) return chat.chatId;
  const others = chat.members.filter((m) => m !== me);
  if (others.length === 0) return 'Just you';
  return others.length <= 3 ? others.join(', ') : `${others.slice(0, 3).join(', ')} +${others.length - 3}`;
}

function membersLine(chat, me, max) {
  const others = chat.members.filter((m) => m !== me);
  if (others.length === 0) return 'Only you';
  const shown = others.slice(0, max).join(', ');
  return others.length > max ? `You, ${shown} and ${others.length - max} more` : `You, ${shown}`;
}

function hue(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)) % 360;
  return h;
}

function avatar(name) {
  const node = el('span', { className: 'avatar', text: (name.match(/[A-Za-z0-9]/)?.[0] ?? '#').toUpperCase(), attrs: { 'aria-hidden': 'true' } });
  node.style.setProperty('--avatar-hue', String(hue(name)));
  return node;
}

const timeOnly = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
const fullTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' });

function shortTime(date) {
  const now = new Date();
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay ? timeOnly.format(date) : dayAndTime.format(date);
}

// --- views ---------------------------------------------------------------------------------

export function showSignIn() {
  els.app.hidden = true;
  els.signinView.hidden = false;
  els.signinError.textContent = '';
  els.signinButton.disabled = false;
  els.toasts.replaceChildren();
  els.chatList.replaceChildren();
  els.onlineList.replaceChildren();
  els.messageList.replaceChildren();
  document.title = 'Pigeonhole';
  els.signinName.focus();
}

export function showApp(me) {
  els.signinView.hidden = true;
  els.app.hidden = false;
  els.meName.textContent = me;
  showMain('welcome');
  els.app.dataset.view = 'list';
}

/** Which panel fills the main area: 'welcome', 'new' or 'chat'. */
export function showMain(which) {
  els.welcomeView.hidden = which !== 'welcome';
  els.newChatView.hidden = which !== 'new';
  els.chatView.hidden = which !== 'chat';
  // On a narrow screen only one of list and main fits; the welcome text is not worth a screen.
  els.app.dataset.view = which === 'welcome' ? 'list' : 'main';
}

export function setBusy(button, busy) {
  button.disabled = busy;
  button.setAttribute('aria-busy', String(busy));
}

export function setFieldError(node, text) {
  node.textContent = text ?? '';
}

// --- connection ----------------------------------------------------------------------------

const CONNECTION_LABELS = {
  connecting: 'Connecting…',
  live: 'Live',
  polling: 'Reconnecting…',
  offline: 'Offline',
};

const CONNECTION_HINTS = {
  connecting: 'Connecting to the server',
  live: 'Connected: new messages appear as they are sent',
  polling: 'Live updates are down; checking for new messages every few seconds',
  offline: 'The server cannot be reached; retrying',
};

export function setConnection(state) {
  if (els.connection.dataset.state === state) return;
  els.connection.dataset.state = state;
  els.connection.title = CONNECTION_HINTS[state];
  els.connection.querySelector('.connection-label').textContent = CONNECTION_LABELS[state];
}

// --- chat list and presence ----------------------------------------------------------------

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
    const preview = previewOf(state.lastMessage(chat.chatId), state.me);
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
  const messages = state.directMessages();
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

// --- the open chat -------------------------------------------------------------------------

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
function regroup(li) {
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

export function openChatView(chat, me, messages, pendingSends) {
  updateChatHeader(chat, me);
  els.inviteForm.reset();
  els.inviteError.textContent = '';
  els.messageList.replaceChildren();
  els.messageList.dataset.openChat = chat.chatId;
  insertMessages(messages, me, { scroll: 'bottom' });
  for (const send of pendingSends) addPendingSend(send, me);
  showMain('chat');
  scrollToBottom();
}

/** Keep the header right when the members change while the chat is open. */
export function updateChatHeader(chat, me) {
  els.chatTitle.textContent = chatTitle(chat, me);
  els.chatMembers.textContent = isMadeUp(chat.chatId)
    ? `Chat ${chat.chatId} · ${membersLine(chat, me, 8)}`
    : membersLine(chat, me, 8);
  els.chatAccess.textContent = chat.open
    ? 'Open: anyone who has its id can join.'
    : 'Private: only its members can add people.';
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

export function setHistoryEdge({ canLoadOlder, note }) {
  els.loadOlder.hidden = !canLoadOlder;
  els.historyNote.textContent = note ?? '';
}

// --- sends in flight -----------------------------------------------------------------------

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

// --- composer ------------------------------------------------------------------------------

export function fitComposer() {
  const input = els.messageInput;
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
}

// --- announcements and toasts --------------------------------------------------------------

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
