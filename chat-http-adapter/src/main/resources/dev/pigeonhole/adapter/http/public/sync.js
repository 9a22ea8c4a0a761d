// Keeping up to date. Pull (GET /api/pending, GET .../messages, GET /api/mailbox) is the source of
// truth; the socket only makes it fast. So every time the socket is down the page polls, and every
// time it comes back, or the server says resync, the page pulls once to close whatever gap there was.

import { ApiError, isTransient } from './api.js';
import { fillOpenChat, openChat, refreshChats, refreshPresence, scheduleAck, showNewMessages } from './chat.js';
import { loadInvitations, onInvitationEvent, startInvitations } from './invitations.js';
import { createLive, liveUrl } from './live.js';
import { onDirectMessage, pullMailbox, whenMailboxShown } from './mailbox.js';
import { loadReach, startReach } from './reach.js';
import { api, current, report, showConnection } from './session.js';
import * as ui from './ui.js';

const { els } = ui;

const POLL_MS = 4_000;
const POLL_HIDDEN_MS = 15_000;
// Presence events cover changes while the socket is up; a periodic look also keeps this user
// "online" (every signed-in request counts) while they only read.
const PRESENCE_MS = 60_000;
const PRESENCE_EVERY_POLLS = 2;

/** A new session: the lists first, then the chat the address names, then the socket. */
export function follow(s) {
  startInvitations(s);
  startReach(s);
  s.live = createLive({
    url: () => (current === s ? liveUrl(s.token) : null),
    onOpen: () => {
      s.state.setSocket('open');
      clearTimeout(s.pollTimer);
      showConnection();
      catchUp(s);
    },
    onDown: () => {
      // Pull at once when the socket drops (or never came up); after that the poll keeps its
      // own pace rather than one extra pull per failed reconnect.
      const wasUp = s.state.socket !== 'down';
      s.state.setSocket('down');
      showConnection();
      if (wasUp) schedulePoll(s, 0);
    },
    onEvent: (event) => onLiveEvent(s, event),
  });

  (async () => {
    try {
      await Promise.all([refreshChats(s), refreshPresence(s), pullMailbox(s), loadInvitations(s), loadReach(s)]);
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

/** Back to the tab: read what arrived meanwhile, and stop waiting out a long backoff. */
export function whenTabShown() {
  const s = current;
  if (!s || document.hidden) return;
  scheduleAck(s);
  whenMailboxShown(s);
  if (s.state.socket !== 'open') {
    s.live.reconnectNow();
    schedulePoll(s, 0);
  }
}

export function whenBrowserOnline() {
  const s = current;
  if (!s) return;
  s.state.setReachable(true);
  showConnection();
  s.live.reconnectNow();
  schedulePoll(s, 0);
}

function schedulePoll(s, delay) {
  clearTimeout(s.pollTimer);
  if (current !== s || s.state.socket === 'open') return;
  s.pollTimer = setTimeout(() => poll(s), delay ?? (document.hidden ? POLL_HIDDEN_MS : POLL_MS));
}

async function poll(s) {
  if (current !== s || s.state.socket === 'open') return;
  let delay;
  s.polls += 1;
  try {
    // Without the socket there are no presence or invitation events either, so look more often
    // than the minute-by-minute refresh, but not on every poll.
    const now = s.polls % PRESENCE_EVERY_POLLS === 1;
    await Promise.all([pullPending(s), pullMailbox(s), now ? refreshPresence(s) : null, now ? loadInvitations(s) : null]);
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
        await Promise.all([pullPending(s), refreshPresence(s), pullMailbox(s), loadInvitations(s)]);
        await fillOpenChat(s);
      } catch (error) {
        if (!isTransient(error)) report(error);
      }
    } while (s.catchUpAgain && current === s);
    s.catchingUp = null;
  })();
  return s.catchingUp;
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
        s.state.history.add(chatId, [message]);
        refreshChats(s).catch(report);
        return;
      }
      const fresh = s.state.noteMessage(chatId, message);
      if (fresh && chatId === s.state.openChatId) showNewMessages(s, [message]);
      ui.renderChatList(s.state);
      break;
    }
    case 'presence':
      // A diff of the people we share a chat with, at most one a second.
      if (Array.isArray(event.online) && Array.isArray(event.offline)) {
        s.state.applyPresence(event.online, event.offline);
        ui.renderOnline(s.state);
      }
      break;
    case 'membership':
      // Added to a chat (or out of one, through another tab or server): the list says which.
      if (typeof event.chatId === 'string') refreshChats(s).catch(report);
      break;
    case 'mailbox':
      // A message for this user alone; the mailbox keeps it until the page acknowledges it.
      if (event.message && typeof event.message === 'object') onDirectMessage(s, event.message);
      break;
    case 'invitation':
      // Someone this user shares no chat with put it in one: it waits for an answer, unjoined.
      if (typeof event.chatId === 'string') onInvitationEvent(s, event);
      break;
    case 'resync':
      catchUp(s);
      break;
    default:
      // Newer servers may send more; an old page ignores what it does not know.
  }
}
