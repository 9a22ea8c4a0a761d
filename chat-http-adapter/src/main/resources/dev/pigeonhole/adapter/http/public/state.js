// What the page knows, with no DOM in sight: the chat list with unread counts and how far each is
// acknowledged, the chat on screen, who is online and how the page is connected; and, in parts of
// their own, the messages seen (history.js), the sends on their way (sends.js) and the direct
// messages (direct.js). Every change to it is made in these files, by a method named for what
// happened: the flows only read it. Every merge is idempotent, because the same message can
// arrive from a pull, the socket's catch-up and a live event.

import { DirectMessages } from './direct.js';
import { History, isMessage } from './history.js';
import { Sends } from './sends.js';

const USER_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The server's own rule for user and chat ids (docs/DESIGN.md §3), checked early for a friendlier message. */
export function isValidId(text) {
  return USER_ID.test(text);
}

export class ChatState {
  constructor(me) {
    this.me = me;
    /** chatId → { chatId, members, open, cursor, lastId, unread }, in the server's order. */
    this.chats = new Map();
    /** The messages this tab has seen, per chat. */
    this.history = new History(me);
    /** chatId → oldest id the server still holds, as last reported. */
    this.firstAvailable = new Map();
    /** chatId → highest id acknowledged from this tab, so the same ack is not sent twice; see shownUpTo. */
    this.acked = new Map();
    this.online = new Set();
    /** The mailbox as this tab has shown it. */
    this.direct = new DirectMessages(me);
    this.openChatId = null;
    this.sends = new Sends();
    /** The live socket: 'connecting', 'open' or 'down'. */
    this.socket = 'connecting';
    /** Whether the server answered the last call at all. */
    this.reachable = true;
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
      this.history.dropStale(s.chatId, s.lastId);
    }
    const gone = [...previous.keys()].filter((id) => !this.chats.has(id));
    gone.forEach((id) => this.forget(id));
    return gone;
  }

  /** Forget a chat the user left (or was found to be out of). */
  forget(chatId) {
    this.chats.delete(chatId);
    this.history.forget(chatId);
    this.firstAvailable.delete(chatId);
    this.acked.delete(chatId);
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
      const fresh = this.history.add(p.chatId, messages);
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
    const fresh = this.history.add(chatId, [message]).length === 1;
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
    const chat = this.chats.get(chatId);
    let top = Math.max(chat?.cursor ?? 0, this.acked.get(chatId) ?? 0, (this.firstAvailable.get(chatId) ?? 1) - 1);
    while (this.history.has(chatId, top + 1)) top += 1;
    return top;
  }

  /** Whether something is shown past a hole, which a pull has to fill before the ack can pass it. */
  hasHole(chatId) {
    return this.history.newestId(chatId) > this.shownUpTo(chatId);
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

  /** Sign-out: nothing may be written for this user afterwards. */
  close() {
    this.history.close();
    this.direct.close();
  }
}
