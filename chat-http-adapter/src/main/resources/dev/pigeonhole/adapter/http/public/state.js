// What the page knows, with no DOM in sight: the session, the chat list with unread counts,
// the messages seen so far, the sends still on their way, who is online and how the page is
// connected. Every change to it is made here, by a method named for what happened, which is why
// this one file is longer than the others: the flows only read it. Every merge is idempotent,
// because the same message can arrive from a pull, the socket's catch-up and a live event.

const SESSION_KEY = 'pigeonhole.session';
const HISTORY_PREFIX = 'pigeonhole.history.';
const MAILBOX_PREFIX = 'pigeonhole.mailbox.';
// The server trims what every member has read, so the page is often the only place a chat's
// past still exists. Keep some of it across reloads of the tab, but not without bound.
const KEPT_PER_CHAT = 200;

export const session = {
  load() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null');
      return saved && typeof saved.user === 'string' && typeof saved.token === 'string' ? saved : null;
    } catch {
      return null;
    }
  },
  save(user, token) {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify({ user, token }));
  },
  clear(user) {
    sessionStorage.removeItem(SESSION_KEY);
    if (user) {
      sessionStorage.removeItem(HISTORY_PREFIX + user);
      sessionStorage.removeItem(MAILBOX_PREFIX + user);
    }
  },
};

const USER_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The server's own rule for user and chat ids (docs/DESIGN.md §3), checked early for a friendlier message. */
export function isValidId(text) {
  return USER_ID.test(text);
}

function isMessage(m) {
  return m && Number.isInteger(m.id) && typeof m.sender === 'string' && typeof m.message === 'string';
}

export class ChatState {
  constructor(me) {
    this.me = me;
    /** chatId → { chatId, members, open, cursor, lastId, unread }, in the server's order. */
    this.chats = new Map();
    /** chatId → Map(id → message), the messages this tab has seen. */
    this.history = new Map();
    /** chatId → oldest id the server still holds, as last reported. */
    this.firstAvailable = new Map();
    /** chatId → highest id acknowledged from this tab, so the same ack is not sent twice; see shownUpTo. */
    this.acked = new Map();
    this.online = new Set();
    /** id → direct message: the mailbox as this tab has shown it; the server drops what it acknowledged. */
    this.direct = new Map();
    /** The highest mailbox id acknowledged from this tab, so the same ack is not sent twice. */
    this.mailboxAcked = 0;
    this.openChatId = null;
    /** idempotency key → { key, chatId, text, status: 'sending' | 'retrying' | 'failed', attempts } */
    this.sends = new Map();
    /** The live socket: 'connecting', 'open' or 'down'. */
    this.socket = 'connecting';
    /** Whether the server answered the last call at all. */
    this.reachable = true;
    this.restoreHistory();
  }

  // --- the open chat ---------------------------------------------------------------------

  /** The chat on screen, or null for none. */
  setOpenChat(chatId) {
    this.openChatId = chatId;
  }

  // --- chat list -------------------------------------------------------------------------

  /** Replace the list with the server's; returns the ids that are gone. */
  setChats(summaries) {
    const previous = this.chats;
    this.chats = new Map();
    for (const s of summaries) {
      const known = previous.get(s.chatId);
      // A live event may have told us of a message the list (fetched a moment earlier) missed.
      const lastId = Math.max(s.lastId, known?.lastId ?? 0);
      this.chats.set(s.chatId, {
        chatId: s.chatId,
        members: s.members,
        open: s.open,
        cursor: Math.max(s.cursor, this.acked.get(s.chatId) ?? 0),
        lastId,
        unread: 0,
      });
      this.recount(s.chatId);
      this.dropStaleHistory(s.chatId, s.lastId);
    }
    const gone = [...previous.keys()].filter((id) => !this.chats.has(id));
    gone.forEach((id) => this.forget(id));
    return gone;
  }

  /** Forget a chat the user left (or was found to be out of). */
  forget(chatId) {
    this.chats.delete(chatId);
    this.history.delete(chatId);
    this.firstAvailable.delete(chatId);
    this.acked.delete(chatId);
    this.saveHistorySoon();
  }

  recount(chatId) {
    const chat = this.chats.get(chatId);
    if (chat) {
      chat.unread = Math.max(0, chat.lastId - chat.cursor);
    }
  }

  totalUnread() {
    let total = 0;
    for (const chat of this.chats.values()) total += chat.unread;
    return total;
  }

  /**
   * Take in GET /api/pending. Returns { unknown: chat ids the list lacks, missing: listed chats
   * the server no longer reports, added: chatId → new messages }.
   */
  applyPending(pending) {
    const unknown = [];
    const added = new Map();
    const reported = new Set();
    for (const p of pending.chats ?? []) {
      reported.add(p.chatId);
      const chat = this.chats.get(p.chatId);
      if (!chat) {
        unknown.push(p.chatId);
        continue;
      }
      const messages = (p.messages ?? []).filter(isMessage);
      const newest = messages.length ? messages[messages.length - 1].id : 0;
      chat.lastId = Math.max(chat.lastId, newest);
      // The server's count is the truth; our own cursor can only be ahead of it by an ack in flight.
      chat.cursor = Math.max(chat.cursor, chat.lastId - p.unread, this.acked.get(p.chatId) ?? 0);
      this.recount(p.chatId);
      this.noteFirstAvailable(p.chatId, p.firstAvailableId);
      const fresh = this.addMessages(p.chatId, messages);
      if (fresh.length) added.set(p.chatId, fresh);
    }
    const missing = [...this.chats.keys()].filter((id) => !reported.has(id));
    return { unknown, missing, added };
  }

  /**
   * A message from the socket or a send. Returns whether it was new to this tab; unread counts
   * move only for new ones, which is the per chat+id dedupe the live protocol asks for.
   */
  noteMessage(chatId, message) {
    if (!isMessage(message)) return false;
    const chat = this.chats.get(chatId);
    const fresh = this.addMessages(chatId, [message]).length === 1;
    if (chat && message.id > chat.lastId) {
      chat.lastId = message.id;
      // Our own send moves our cursor when we had read everything before it; mirror that.
      if (message.sender === this.me && chat.cursor === message.id - 1) {
        chat.cursor = message.id;
      }
      this.recount(chatId);
    }
    return fresh;
  }

  noteAcknowledged(chatId, upTo) {
    this.acked.set(chatId, Math.max(upTo, this.acked.get(chatId) ?? 0));
    const chat = this.chats.get(chatId);
    if (chat) {
      chat.cursor = Math.max(chat.cursor, upTo);
      this.recount(chatId);
    }
  }

  /**
   * The highest id h such that this tab has shown every message of the chat up to h: from what is
   * read already (the cursor) or gone for everyone (below the oldest id the server holds), an
   * unbroken run of ids kept here. A message shown past a hole (a live one after a catch-up cut
   * short) does not move it, so acknowledging never marks unseen messages read.
   */
  shownUpTo(chatId) {
    const kept = this.history.get(chatId);
    const chat = this.chats.get(chatId);
    let top = Math.max(chat?.cursor ?? 0, this.acked.get(chatId) ?? 0, (this.firstAvailable.get(chatId) ?? 1) - 1);
    while (kept?.has(top + 1)) top += 1;
    return top;
  }

  /** Whether something is shown past a hole, which a pull has to fill before the ack can pass it. */
  hasHole(chatId) {
    return this.newestId(chatId) > this.shownUpTo(chatId);
  }

  /** How far to acknowledge now: the end of the unbroken run shown, if it is past what is acknowledged. */
  needsAck(chatId) {
    const top = this.shownUpTo(chatId);
    const chat = this.chats.get(chatId);
    const floor = Math.max(this.acked.get(chatId) ?? 0, chat?.cursor ?? 0);
    return top > floor ? top : 0;
  }

  /** A page of history can know of a newer message than the list did. */
  noteLastId(chatId, lastId) {
    const chat = this.chats.get(chatId);
    if (chat && lastId > chat.lastId) {
      chat.lastId = lastId;
      this.recount(chatId);
    }
  }

  noteFirstAvailable(chatId, firstAvailableId) {
    if (Number.isInteger(firstAvailableId)) {
      this.firstAvailable.set(chatId, firstAvailableId);
    }
  }

  // --- messages --------------------------------------------------------------------------

  /** Merge messages; returns the ones not seen before, oldest first. */
  addMessages(chatId, messages) {
    let kept = this.history.get(chatId);
    if (!kept) {
      kept = new Map();
      this.history.set(chatId, kept);
    }
    const fresh = [];
    for (const m of messages) {
      if (isMessage(m) && !kept.has(m.id)) {
        kept.set(m.id, m);
        fresh.push(m);
      }
    }
    if (fresh.length) {
      fresh.sort((a, b) => a.id - b.id);
      this.saveHistorySoon();
    }
    return fresh;
  }

  messagesOf(chatId) {
    const kept = this.history.get(chatId);
    return kept ? [...kept.values()].sort((a, b) => a.id - b.id) : [];
  }

  newestId(chatId) {
    let top = 0;
    for (const id of this.history.get(chatId)?.keys() ?? []) top = Math.max(top, id);
    return top;
  }

  /** The newest message held for a chat, for the list's preview line. */
  lastMessage(chatId) {
    let last = null;
    for (const m of this.history.get(chatId)?.values() ?? []) if (!last || m.id > last.id) last = m;
    return last;
  }

  oldestId(chatId) {
    let low = 0;
    for (const id of this.history.get(chatId)?.keys() ?? []) low = low === 0 ? id : Math.min(low, id);
    return low;
  }

  /** A chat id can be reused once its last member leaves; kept messages above its ids are another chat's. */
  dropStaleHistory(chatId, lastId) {
    if (this.newestId(chatId) > lastId) {
      this.history.delete(chatId);
      this.saveHistorySoon();
    }
  }

  clearHistory(chatId) {
    this.history.delete(chatId);
    this.saveHistorySoon();
  }

  // --- sends on their way ----------------------------------------------------------------

  /** A message the server does not have yet; every attempt at it carries the same key. */
  addSend(chatId, text, key) {
    const send = { key, chatId, text, status: 'sending', attempts: 0 };
    this.sends.set(key, send);
    return send;
  }

  pendingSend(key) {
    return this.sends.get(key);
  }

  sendsIn(chatId) {
    return [...this.sends.values()].filter((send) => send.chatId === chatId);
  }

  /** An attempt failed on the way; another follows by itself. */
  sendRetrying(key) {
    const send = this.sends.get(key);
    if (send) {
      send.attempts += 1;
      send.status = 'retrying';
    }
  }

  /** No more attempts by themselves: the person may try again or discard it. */
  sendFailed(key) {
    const send = this.sends.get(key);
    if (send) send.status = 'failed';
  }

  /** The person asked to try a failed send again. */
  sendAgain(key) {
    const send = this.sends.get(key);
    if (send) {
      send.attempts = 0;
      send.status = 'sending';
    }
  }

  /** Sent, refused or discarded: no longer on its way. */
  dropSend(key) {
    this.sends.delete(key);
  }

  // --- connection ------------------------------------------------------------------------

  setSocket(socket) {
    this.socket = socket;
  }

  setReachable(reachable) {
    this.reachable = reachable;
  }

  /** What the connection indicator says: 'live', 'offline', 'connecting' or 'polling'. */
  connection(browserOnline) {
    if (this.socket === 'open') return 'live';
    if (!this.reachable || !browserOnline) return 'offline';
    if (this.socket === 'connecting') return 'connecting';
    return 'polling';
  }

  // --- presence --------------------------------------------------------------------------

  setOnline(users) {
    this.online = new Set(users);
  }

  /** Everyone we share a chat with: whose presence the server shows us. */
  coMembers() {
    return new Set([...this.chats.values()].flatMap((chat) => chat.members ?? []));
  }

  /** A presence diff: who came online and who went offline since the last one. */
  applyPresence(online, offline) {
    online.filter((user) => typeof user === 'string').forEach((user) => this.online.add(user));
    offline.filter((user) => typeof user === 'string').forEach((user) => this.online.delete(user));
  }

  // --- the mailbox -----------------------------------------------------------------------

  /** Merges direct messages by id (a pull and a live event may bring the same one); returns the new ones. */
  addDirectMessages(messages) {
    const added = [];
    for (const m of messages) {
      if (!isMessage(m) || this.direct.has(m.id)) continue;
      this.direct.set(m.id, m);
      added.push(m);
    }
    if (added.length) {
      for (const id of [...this.direct.keys()].sort((a, b) => a - b).slice(0, -KEPT_PER_CHAT)) this.direct.delete(id);
      this.saveHistorySoon();
    }
    return added;
  }

  directMessages() {
    return [...this.direct.values()].sort((a, b) => a.id - b.id);
  }

  /** The id to acknowledge now, or 0 when everything shown is acknowledged already. */
  mailboxToAck() {
    const newest = Math.max(0, ...this.direct.keys());
    return newest > this.mailboxAcked ? newest : 0;
  }

  noteMailboxAcknowledged(upTo) {
    this.mailboxAcked = Math.max(this.mailboxAcked, upTo);
  }

  // --- keeping history across reloads ----------------------------------------------------

  restoreHistory() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(HISTORY_PREFIX + this.me) ?? '{}');
      for (const [chatId, messages] of Object.entries(saved)) {
        if (Array.isArray(messages)) this.addMessages(chatId, messages);
      }
    } catch {
      // A damaged cache only costs history the server may still have.
    }
    try {
      const saved = JSON.parse(sessionStorage.getItem(MAILBOX_PREFIX + this.me) ?? '[]');
      if (Array.isArray(saved)) this.addDirectMessages(saved);
    } catch {
      // Acknowledged direct messages exist nowhere else: losing the cache loses them from view.
    }
  }

  saveHistorySoon() {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = 0;
      this.saveHistory();
    }, 1_000);
  }

  saveHistory() {
    if (this.closed) return;
    const out = {};
    for (const chatId of this.history.keys()) {
      out[chatId] = this.messagesOf(chatId).slice(-KEPT_PER_CHAT);
    }
    try {
      sessionStorage.setItem(HISTORY_PREFIX + this.me, JSON.stringify(out));
      sessionStorage.setItem(MAILBOX_PREFIX + this.me, JSON.stringify(this.directMessages()));
    } catch {
      // Storage full or disabled: the page still works, it just forgets on reload.
    }
  }

  /** Sign-out: nothing may be written for this user afterwards. */
  close() {
    this.closed = true;
    clearTimeout(this.saveTimer);
  }
}
