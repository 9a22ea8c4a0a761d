// Wires the page together: sign-in, the flows behind each control, and keeping up to date.
// Pull (GET /api/pending, GET .../messages) is the source of truth; the socket only makes it
// fast. So every time the socket is down the page polls, and every time it comes back, or the
// server says resync, the page pulls once to close whatever gap there was.

import { ApiError, createApi, isTransient, newIdempotencyKey } from './api.js';
import { createLive, liveUrl } from './live.js';
import { ChatState, isValidId, session } from './state.js';
import * as ui from './ui.js';

const { els } = ui;

const PAGE = 50;
const POLL_MS = 4_000;
const POLL_HIDDEN_MS = 15_000;
// Presence events cover changes while the socket is up; a periodic look also keeps this user
// "online" (every signed-in request counts) while they only read.
const PRESENCE_MS = 60_000;
const PRESENCE_EVERY_POLLS = 2;
const SEND_RETRIES = 3;

/** The signed-in user's world. Replaced on sign-in, so late answers for an old one are dropped. */
let current = null;

const api = createApi({
  getToken: () => current?.token ?? null,
  onUnauthorized: () => {
    if (current) endSession('Your session has ended. Sign in again to carry on.');
  },
  onReachable: (reachable) => {
    if (!current) return;
    current.reachable = reachable;
    showConnection();
  },
});

// --- errors --------------------------------------------------------------------------------

function report(error) {
  if (error instanceof ApiError && error.status === 401) return; // already back at sign-in
  ui.toast(error.detail ?? error.message ?? String(error), 'error');
}

/** How a notice names a chat: a bare number reads oddly in a sentence. */
function chatLabel(chatId) {
  return /^\d+$/.test(chatId) ? `chat #${chatId}` : chatId;
}

function idsFrom(text) {
  return [...new Set(text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean))];
}

// --- session -------------------------------------------------------------------------------

async function signIn(event) {
  event.preventDefault();
  const name = els.signinName.value.trim();
  if (!isValidId(name)) {
    ui.setFieldError(els.signinError, name
      ? 'Use 1 to 64 letters, digits, dots, dashes or underscores, with no spaces.'
      : 'Enter a name to sign in.');
    els.signinName.setAttribute('aria-invalid', 'true');
    els.signinName.focus();
    return;
  }
  els.signinName.removeAttribute('aria-invalid');
  ui.setFieldError(els.signinError, '');
  ui.setBusy(els.signinButton, true);
  try {
    const { user, token } = await api.signIn(name);
    session.save(user, token);
    startSession(user, token);
  } catch (error) {
    ui.setFieldError(els.signinError, error.detail ?? error.message);
    els.signinName.focus();
  } finally {
    ui.setBusy(els.signinButton, false);
  }
}

function startSession(user, token) {
  const s = {
    user,
    token,
    state: new ChatState(user),
    live: null,
    reachable: true,
    socket: 'connecting',
    pollTimer: 0,
    presenceTimer: 0,
    ackTimer: 0,
    sends: new Map(), // idempotency key → { key, chatId, text, status, attempts }
    catchingUp: null,
    catchUpAgain: false,
  };
  current = s;
  ui.showApp(user);
  ui.setConnection('connecting');
  ui.renderChatList(s.state);
  ui.renderOnline(s.state);

  s.live = createLive({
    url: () => (current === s ? liveUrl(s.token) : null),
    onOpen: () => {
      s.socket = 'open';
      clearTimeout(s.pollTimer);
      showConnection();
      catchUp(s);
    },
    onDown: () => {
      // Pull at once when the socket drops (or never came up); after that the poll keeps its
      // own pace rather than one extra pull per failed reconnect.
      const wasUp = s.socket !== 'down';
      s.socket = 'down';
      showConnection();
      if (wasUp) schedulePoll(s, 0);
    },
    onEvent: (event) => onLiveEvent(s, event),
  });

  (async () => {
    try {
      await Promise.all([refreshChats(s), refreshPresence(s)]);
    } catch (error) {
      report(error);
    }
    if (current !== s) return;
    const wanted = decodeURIComponent(location.hash.replace(/^#chat=/, ''));
    if (location.hash.startsWith('#chat=') && s.state.chats.has(wanted)) {
      openChat(wanted, { focus: true });
    } else {
      els.newChatButton.focus();
    }
    s.live.start();
    schedulePresence(s);
  })();
}

function endSession(message) {
  const s = current;
  if (!s) return;
  current = null;
  s.live.stop();
  clearTimeout(s.pollTimer);
  clearTimeout(s.presenceTimer);
  clearTimeout(s.ackTimer);
  s.state.close();
  session.clear(s.user);
  history.replaceState(null, '', location.pathname + location.search);
  ui.showSignIn();
  if (message) ui.toast(message, 'info');
}

// --- connection state ----------------------------------------------------------------------

function showConnection() {
  const s = current;
  if (!s) return;
  if (s.socket === 'open') ui.setConnection('live');
  else if (!s.reachable || !navigator.onLine) ui.setConnection('offline');
  else if (s.socket === 'connecting') ui.setConnection('connecting');
  else ui.setConnection('polling');
}

// --- keeping up to date --------------------------------------------------------------------

function schedulePoll(s, delay) {
  clearTimeout(s.pollTimer);
  if (current !== s || s.socket === 'open') return;
  s.pollTimer = setTimeout(() => poll(s), delay ?? (document.hidden ? POLL_HIDDEN_MS : POLL_MS));
}

async function poll(s) {
  if (current !== s || s.socket === 'open') return;
  let delay;
  s.polls = (s.polls ?? 0) + 1;
  try {
    // Without the socket there are no presence events either, so look more often than the
    // minute-by-minute refresh, but not on every poll.
    await Promise.all([pullPending(s), s.polls % PRESENCE_EVERY_POLLS === 1 ? refreshPresence(s) : null]);
    await fillOpenChat(s);
  } catch (error) {
    // Quiet on purpose: the connection state already says the server is away.
    if (!isTransient(error)) report(error);
    if (error instanceof ApiError && error.retryAfter) delay = error.retryAfter * 1000;
  }
  schedulePoll(s, delay);
}

function schedulePresence(s) {
  clearTimeout(s.presenceTimer);
  s.presenceTimer = setTimeout(async () => {
    if (current !== s) return;
    try {
      await Promise.all([refreshPresence(s), refreshChats(s)]);
    } catch (error) {
      if (!isTransient(error)) report(error);
    }
    schedulePresence(s);
  }, PRESENCE_MS);
}

/** One catch-up at a time; a request for another while one runs makes it run once more after. */
function catchUp(s) {
  if (s.catchingUp) {
    s.catchUpAgain = true;
    return s.catchingUp;
  }
  s.catchingUp = (async () => {
    do {
      s.catchUpAgain = false;
      try {
        await refreshChats(s);
        await Promise.all([pullPending(s), refreshPresence(s)]);
        await fillOpenChat(s);
      } catch (error) {
        if (!isTransient(error)) report(error);
      }
    } while (s.catchUpAgain && current === s);
    s.catchingUp = null;
  })();
  return s.catchingUp;
}

async function refreshChats(s) {
  const list = await api.listChats();
  if (current !== s) return;
  const gone = s.state.setChats(list);
  if (gone.includes(s.state.openChatId)) {
    ui.toast(`You are no longer in ${chatLabel(s.state.openChatId)}.`, 'info');
    closeChat(s);
  } else if (s.state.openChatId) {
    ui.updateChatHeader(s.state.chats.get(s.state.openChatId), s.user);
  }
  ui.renderChatList(s.state);
}

async function refreshPresence(s) {
  const { online } = await api.presence();
  if (current !== s) return;
  s.state.setOnline(online);
  ui.renderOnline(s.state);
}

async function pullPending(s) {
  const pending = await api.pending();
  if (current !== s) return;
  let result = s.state.applyPending(pending);
  if (result.unknown.length || result.missing.length) {
    // Someone added us to a chat, or we left one elsewhere: the list has the members.
    await refreshChats(s);
    if (current !== s) return;
    result = s.state.applyPending(pending);
  }
  const openId = s.state.openChatId;
  const fresh = result.added.get(openId);
  if (fresh) showNewMessages(s, fresh);
  ui.renderChatList(s.state);
}

function onLiveEvent(s, event) {
  if (current !== s) return;
  switch (event.type) {
    case 'message': {
      const { chatId, message } = event;
      if (typeof chatId !== 'string') return;
      if (!s.state.chats.has(chatId)) {
        // A chat we were just added to: the message is kept, the list fetched for its members.
        s.state.addMessages(chatId, [message]);
        refreshChats(s).catch(report);
        return;
      }
      const fresh = s.state.noteMessage(chatId, message);
      if (fresh && chatId === s.state.openChatId) showNewMessages(s, [message]);
      ui.renderChatList(s.state);
      break;
    }
    case 'presence':
      if (typeof event.user === 'string') {
        s.state.notePresence(event.user, Boolean(event.online));
        ui.renderOnline(s.state);
      }
      break;
    case 'resync':
      catchUp(s);
      break;
    default:
      // Newer servers may send more; an old page ignores what it does not know.
  }
}

function showNewMessages(s, messages) {
  ui.insertMessages(messages, s.user);
  for (const m of messages) {
    if (m.sender !== s.user) ui.announce(`${m.sender}: ${m.message}`);
  }
  scheduleAck(s);
}

// --- the open chat -------------------------------------------------------------------------

async function openChat(chatId, { focus = false } = {}) {
  const s = current;
  const chat = s?.state.chats.get(chatId);
  if (!chat) return;
  s.state.openChatId = chatId;
  history.replaceState(null, '', `#chat=${encodeURIComponent(chatId)}`);
  ui.openChatView(chat, s.user, s.state.messagesOf(chatId), [...s.sends.values()].filter((x) => x.chatId === chatId));
  updateHistoryEdge(s, chatId);
  ui.renderChatList(s.state);
  if (focus) els.messageInput.focus();
  try {
    // What loads on opening is history, not news: no one needs it read out.
    await fillOpenChat(s, { announce: false });
  } catch (error) {
    report(error);
  }
}

function closeChat(s) {
  // Focus inside a view that is about to be hidden would fall back to <body>.
  const hadFocus = els.chatView.contains(document.activeElement);
  s.state.openChatId = null;
  history.replaceState(null, '', location.pathname + location.search);
  ui.clearMessages();
  ui.showMain('welcome');
  ui.renderChatList(s.state);
  if (hadFocus) els.newChatButton.focus();
}

/**
 * Bring the open chat up to its newest message: from the newest one held, or, holding none,
 * from one page before the end. Loops because more may arrive while it reads.
 */
async function fillOpenChat(s, { announce = true } = {}) {
  const chatId = s.state.openChatId;
  if (!chatId) return;
  let after = s.state.newestId(chatId);
  const holding = after > 0;
  if (!holding) {
    const probe = await api.readMessages(chatId, 0, 1);
    if (current !== s || s.state.openChatId !== chatId) return;
    s.state.noteFirstAvailable(chatId, probe.firstAvailableId);
    after = Math.max(probe.firstAvailableId - 1, probe.lastId - PAGE, 0);
  }
  for (let round = 0; round < 40; round += 1) {
    const page = await api.readMessages(chatId, after, PAGE);
    if (current !== s || s.state.openChatId !== chatId) return;
    s.state.noteFirstAvailable(chatId, page.firstAvailableId);
    const fresh = s.state.addMessages(chatId, page.messages);
    const chat = s.state.chats.get(chatId);
    if (chat && page.lastId > chat.lastId) {
      chat.lastId = page.lastId;
      s.state.recount(chatId);
    }
    if (fresh.length) {
      ui.insertMessages(fresh, s.user, { gapBefore: holding && page.gap });
      if (announce && holding) {
        for (const m of fresh) if (m.sender !== s.user) ui.announce(`${m.sender}: ${m.message}`);
      }
    }
    const newest = page.messages.length ? page.messages[page.messages.length - 1].id : after;
    if (!page.messages.length || newest >= page.lastId) break;
    after = newest;
  }
  updateHistoryEdge(s, chatId);
  ui.renderChatList(s.state);
  scheduleAck(s);
}

async function loadOlder() {
  const s = current;
  const chatId = s?.state.openChatId;
  if (!chatId) return;
  const oldest = s.state.oldestId(chatId);
  const first = s.state.firstAvailable.get(chatId) ?? 1;
  const after = Math.max(first - 1, oldest - 1 - PAGE, 0);
  const limit = oldest - 1 - after;
  if (limit <= 0) {
    updateHistoryEdge(s, chatId);
    return;
  }
  ui.setBusy(els.loadOlder, true);
  try {
    const page = await api.readMessages(chatId, after, limit);
    if (current !== s || s.state.openChatId !== chatId) return;
    s.state.noteFirstAvailable(chatId, page.firstAvailableId);
    ui.insertMessages(s.state.addMessages(chatId, page.messages), s.user, { scroll: 'keep' });
  } catch (error) {
    report(error);
  } finally {
    ui.setBusy(els.loadOlder, false);
  }
  updateHistoryEdge(s, chatId);
  if (els.loadOlder.hidden) els.messageInput.focus();
}

function updateHistoryEdge(s, chatId) {
  const oldest = s.state.oldestId(chatId);
  const first = s.state.firstAvailable.get(chatId);
  const chat = s.state.chats.get(chatId);
  const canLoadOlder = oldest > 1 && first !== undefined && oldest > first;
  let note = '';
  if (oldest === 1) note = 'This is the beginning of the chat.';
  else if (!canLoadOlder && (oldest > 1 || (chat && chat.lastId > 0 && first !== undefined))) {
    // The server drops what every member has read; say so rather than look empty or broken.
    note = 'Earlier messages were read by everyone and are no longer kept.';
  }
  ui.setHistoryEdge({ canLoadOlder, note });
}

// --- acknowledging -------------------------------------------------------------------------

/** Acknowledge what is on screen, but only while someone could be looking at it. */
function scheduleAck(s) {
  clearTimeout(s.ackTimer);
  s.ackTimer = setTimeout(() => acknowledge(s), 300);
}

async function acknowledge(s) {
  const chatId = s.state.openChatId;
  if (current !== s || !chatId || document.hidden) return;
  const upTo = s.state.needsAck(chatId);
  if (!upTo) return;
  try {
    await api.acknowledge(chatId, upTo);
    if (current !== s) return;
    s.state.noteAcknowledged(chatId, upTo);
    ui.renderChatList(s.state);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
      refreshChats(s).catch(report);
    } else if (!isTransient(error)) {
      report(error);
    }
  }
}

// --- sending -------------------------------------------------------------------------------

function submitMessage(event) {
  event.preventDefault();
  const s = current;
  const chatId = s?.state.openChatId;
  const text = els.messageInput.value;
  if (!chatId || !text.trim()) return;
  els.messageInput.value = '';
  ui.fitComposer();
  const send = { key: newIdempotencyKey(), chatId, text, status: 'sending', attempts: 0 };
  s.sends.set(send.key, send);
  ui.addPendingSend(send, s.user);
  attemptSend(s, send);
}

async function attemptSend(s, send) {
  if (current !== s) return; // a retry timer that outlived a sign-out
  try {
    // The same key on every attempt: if an earlier one did reach the server, this one gets the
    // stored message back instead of posting it twice.
    const message = await api.send(send.chatId, send.text, send.key);
    if (current !== s) return;
    s.sends.delete(send.key);
    ui.removePendingSend(send.key);
    const fresh = s.state.noteMessage(send.chatId, message);
    if (fresh && s.state.openChatId === send.chatId) ui.insertMessages([message], s.user);
    ui.renderChatList(s.state);
    scheduleAck(s);
  } catch (error) {
    if (current !== s) return;
    if (isTransient(error) && send.attempts < SEND_RETRIES) {
      send.attempts += 1;
      send.status = 'retrying';
      ui.setPendingStatus(send, send.status);
      setTimeout(() => attemptSend(s, send), 1_000 * 2 ** send.attempts);
    } else if (isTransient(error)) {
      send.status = 'failed';
      ui.setPendingStatus(send, send.status);
      report(error);
    } else {
      // Refused (too long, no longer a member…): trying again would be refused again, so the
      // words go back in the box for the person to fix.
      s.sends.delete(send.key);
      ui.removePendingSend(send.key);
      if (s.state.openChatId === send.chatId && !els.messageInput.value) {
        els.messageInput.value = send.text;
        ui.fitComposer();
      }
      report(error);
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
        // Not a member any more (left on another device): the list is out of date.
        refreshChats(s).catch(report);
      }
    }
  }
}

function onPendingAction(event) {
  const button = event.target.closest('button[data-action]');
  const s = current;
  const send = s?.sends.get(button?.dataset.key);
  if (!send) return;
  if (button.dataset.action === 'retry') {
    send.attempts = 0;
    send.status = 'sending';
    ui.setPendingStatus(send, send.status);
    attemptSend(s, send);
  } else {
    s.sends.delete(send.key);
    ui.removePendingSend(send.key);
    els.messageInput.focus();
  }
}

function onComposerKey(event) {
  // Enter sends; Shift+Enter is a new line; Enter while an IME is composing picks the word.
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
    event.preventDefault();
    els.composer.requestSubmit();
  }
}

// --- creating, joining and leaving ---------------------------------------------------------

function showNewChat() {
  ui.setFieldError(els.newChatError, '');
  ui.setFieldError(els.joinError, '');
  current.state.openChatId = null;
  history.replaceState(null, '', location.pathname + location.search);
  ui.showMain('new');
  ui.renderChatList(current.state);
  els.newChatMembers.focus();
}

async function createChat(event) {
  event.preventDefault();
  const s = current;
  if (!s) return;
  const members = idsFrom(els.newChatMembers.value).filter((m) => m !== s.user);
  const chatId = els.newChatId.value.trim();
  const message = els.newChatMessage.value;
  const bad = members.find((m) => !isValidId(m));
  let problem = '';
  let field = null;
  if (bad) [problem, field] = [`"${bad}" is not a valid name: use letters, digits, dots, dashes or underscores.`, els.newChatMembers];
  else if (chatId && !isValidId(chatId)) [problem, field] = ['A chat id uses 1 to 64 letters, digits, dots, dashes or underscores.', els.newChatId];
  else if (!message.trim()) [problem, field] = ['Write a first message: a chat starts with one.', els.newChatMessage];
  ui.setFieldError(els.newChatError, problem);
  if (field) {
    field.focus();
    return;
  }
  ui.setBusy(els.newChatSubmit, true);
  try {
    const created = await api.createChat({ members, message, chatId: chatId || undefined });
    if (current !== s) return;
    els.newChatForm.reset();
    s.state.addMessages(created.chatId, [created.message]);
    await refreshChats(s);
    await openChat(created.chatId, { focus: true });
  } catch (error) {
    ui.setFieldError(els.newChatError, error.detail ?? error.message);
  } finally {
    ui.setBusy(els.newChatSubmit, false);
  }
}

async function joinChat(event) {
  event.preventDefault();
  const s = current;
  if (!s) return;
  const chatId = els.joinId.value.trim();
  if (!isValidId(chatId)) {
    ui.setFieldError(els.joinError, chatId ? 'A chat id uses 1 to 64 letters, digits, dots, dashes or underscores.' : 'Enter the id of the chat to join.');
    els.joinId.focus();
    return;
  }
  ui.setFieldError(els.joinError, '');
  ui.setBusy(els.joinSubmit, true);
  try {
    await api.join(chatId);
    if (current !== s) return;
    els.joinForm.reset();
    await refreshChats(s);
    await openChat(chatId, { focus: true });
  } catch (error) {
    ui.setFieldError(els.joinError, error.detail ?? error.message);
  } finally {
    ui.setBusy(els.joinSubmit, false);
  }
}

function askToLeave() {
  const s = current;
  const chat = s?.state.chats.get(s.state.openChatId);
  if (!chat) return;
  const others = chat.members.filter((m) => m !== s.user).length;
  els.leaveDialogText.textContent = others === 0
    ? 'You are the last one in it, so the chat and its messages will be gone for good.'
    : 'You will stop getting its messages. You can join again with its id.';
  els.leaveDialog.returnValue = '';
  els.leaveDialog.showModal();
}

async function onLeaveDialogClosed() {
  const s = current;
  const chatId = s?.state.openChatId;
  if (!chatId) return;
  if (els.leaveDialog.returnValue !== 'leave') {
    els.leaveButton.focus();
    return;
  }
  try {
    await api.leave(chatId, s.user);
    if (current !== s) return;
    s.state.forget(chatId);
    if (s.state.openChatId === chatId) closeChat(s);
    ui.renderChatList(s.state);
    ui.toast(`You left ${chatLabel(chatId)}.`, 'info');
    els.newChatButton.focus();
  } catch (error) {
    report(error);
    els.leaveButton.focus();
  }
}

function backToList() {
  const s = current;
  const was = s?.state.openChatId;
  if (s) closeChat(s);
  const item = was && els.chatList.querySelector(`li[data-chat-id="${CSS.escape(was)}"] button`);
  (item || els.newChatButton).focus();
}

// --- wiring --------------------------------------------------------------------------------

els.signinForm.addEventListener('submit', signIn);
els.signout.addEventListener('click', () => endSession(null));
els.newChatButton.addEventListener('click', showNewChat);
els.newChatForm.addEventListener('submit', createChat);
els.joinForm.addEventListener('submit', joinChat);
els.composer.addEventListener('submit', submitMessage);
els.messageInput.addEventListener('keydown', onComposerKey);
els.messageInput.addEventListener('input', ui.fitComposer);
els.messageList.addEventListener('click', onPendingAction);
els.loadOlder.addEventListener('click', loadOlder);
els.leaveButton.addEventListener('click', askToLeave);
els.leaveDialog.addEventListener('close', onLeaveDialogClosed);
els.jumpLatest.addEventListener('click', () => {
  ui.scrollToBottom();
  els.messageInput.focus();
});
els.scroller.addEventListener('scroll', () => {
  if (ui.isNearBottom()) els.jumpLatest.hidden = true;
}, { passive: true });
for (const back of document.querySelectorAll('[data-back]')) back.addEventListener('click', backToList);

els.chatList.addEventListener('click', (event) => {
  const item = event.target.closest('li[data-chat-id]');
  if (item) openChat(item.dataset.chatId, { focus: true });
});

document.addEventListener('visibilitychange', () => {
  const s = current;
  if (!s || document.hidden) return;
  // Back to the tab: read what arrived meanwhile, and stop waiting out a long backoff.
  scheduleAck(s);
  if (s.socket !== 'open') {
    s.live.reconnectNow();
    schedulePoll(s, 0);
  }
});

window.addEventListener('online', () => {
  const s = current;
  if (!s) return;
  s.reachable = true;
  showConnection();
  s.live.reconnectNow();
  schedulePoll(s, 0);
});

window.addEventListener('offline', showConnection);

const saved = session.load();
if (saved) {
  startSession(saved.user, saved.token);
} else {
  ui.showSignIn();
}
