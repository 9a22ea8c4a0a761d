// The messages this tab has seen, per chat, merged by id: the same message can arrive from a pull,
// the socket's catch-up and a live event, so adding one twice changes nothing. The newest of each
// chat are kept across reloads (saved.js).

import { HISTORY_PREFIX, KEPT_PER_CHAT, keeper, readKept } from './saved.js';

export function isMessage(m) {
  return m && Number.isInteger(m.id) && typeof m.sender === 'string' && typeof m.message === 'string';
}

export class History {
  constructor(me) {
    /** chatId → Map(id → message). */
    this.byChat = new Map();
    this.kept = keeper(HISTORY_PREFIX + me, () => {
      const out = {};
      for (const chatId of this.byChat.keys()) out[chatId] = this.messagesOf(chatId).slice(-KEPT_PER_CHAT);
      return out;
    });
    // A damaged cache only costs history the server may still have.
    const saved = readKept(HISTORY_PREFIX + me, {});
    for (const [chatId, messages] of Object.entries(saved)) {
      if (Array.isArray(messages)) this.add(chatId, messages);
    }
  }

  /** Merge messages; returns the ones not seen before, oldest first. */
  add(chatId, messages) {
    let kept = this.byChat.get(chatId);
    if (!kept) {
      kept = new Map();
      this.byChat.set(chatId, kept);
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
      this.kept.soon();
    }
    return fresh;
  }

  has(chatId, id) {
    return this.byChat.get(chatId)?.has(id) ?? false;
  }

  messagesOf(chatId) {
    const kept = this.byChat.get(chatId);
    return kept ? [...kept.values()].sort((a, b) => a.id - b.id) : [];
  }

  newestId(chatId) {
    let top = 0;
    for (const id of this.byChat.get(chatId)?.keys() ?? []) top = Math.max(top, id);
    return top;
  }

  /** The newest message held for a chat, for the list's preview line. */
  lastMessage(chatId) {
    let last = null;
    for (const m of this.byChat.get(chatId)?.values() ?? []) if (!last || m.id > last.id) last = m;
    return last;
  }

  oldestId(chatId) {
    let low = 0;
    for (const id of this.byChat.get(chatId)?.keys() ?? []) low = low === 0 ? id : Math.min(low, id);
    return low;
  }

  /** A chat id can be reused once its last member leaves; kept messages above its ids are another chat's. */
  dropStale(chatId, lastId) {
    if (this.newestId(chatId) > lastId) this.forget(chatId);
  }

  forget(chatId) {
    this.byChat.delete(chatId);
    this.kept.soon();
  }

  /** Sign-out: nothing may be written for this user afterwards. */
  close() {
    this.kept.close();
  }
}
