// The mailbox as this tab has shown it: the server drops what the page acknowledged, so the newest
// are kept across reloads (saved.js). Merged by id, since a pull and a live event may bring the
// same one. How it is read and acknowledged is mailbox.js's.

import { isMessage } from './history.js';
import { KEPT_PER_CHAT, MAILBOX_PREFIX, keeper, readKept } from './saved.js';

export class DirectMessages {
  constructor(me) {
    /** id → direct message. */
    this.byId = new Map();
    /** The highest id acknowledged from this tab, so the same ack is not sent twice. */
    this.acked = 0;
    this.kept = keeper(MAILBOX_PREFIX + me, () => this.list());
    // Acknowledged direct messages exist nowhere else: a damaged cache loses them from view.
    const saved = readKept(MAILBOX_PREFIX + me, []);
    if (Array.isArray(saved)) this.add(saved);
  }

  /** Returns the ones new to this tab. */
  add(messages) {
    const added = [];
    for (const m of messages) {
      if (!isMessage(m) || this.byId.has(m.id)) continue;
      this.byId.set(m.id, m);
      added.push(m);
    }
    if (added.length) {
      for (const id of [...this.byId.keys()].sort((a, b) => a - b).slice(0, -KEPT_PER_CHAT)) this.byId.delete(id);
      this.kept.soon();
    }
    return added;
  }

  /** Oldest first. */
  list() {
    return [...this.byId.values()].sort((a, b) => a.id - b.id);
  }

  /** The id to acknowledge now, or 0 when everything shown is acknowledged already. */
  toAck() {
    const newest = Math.max(0, ...this.byId.keys());
    return newest > this.acked ? newest : 0;
  }

  noteAcknowledged(upTo) {
    this.acked = Math.max(this.acked, upTo);
  }

  /** Written down at once: once acknowledged, this tab's copy is the only one left. */
  keepNow() {
    this.kept.now();
  }

  /** Sign-out: nothing may be written for this user afterwards. */
  close() {
    this.kept.close();
  }
}
