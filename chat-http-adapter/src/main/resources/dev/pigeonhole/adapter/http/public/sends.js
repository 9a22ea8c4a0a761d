// The sends still on their way, by idempotency key: shown at once, gone once the server has them,
// refused them, or the person discarded them. How they go out is sending.js's.

export class Sends {
  constructor() {
    /** idempotency key → { key, chatId, text, status: 'sending' | 'retrying' | 'failed', attempts } */
    this.byKey = new Map();
  }

  /** A message the server does not have yet; every attempt at it carries the same key. */
  add(chatId, text, key) {
    const send = { key, chatId, text, status: 'sending', attempts: 0 };
    this.byKey.set(key, send);
    return send;
  }

  get(key) {
    return this.byKey.get(key);
  }

  in(chatId) {
    return [...this.byKey.values()].filter((send) => send.chatId === chatId);
  }

  /** An attempt failed on the way; another follows by itself. */
  retrying(key) {
    const send = this.byKey.get(key);
    if (send) {
      send.attempts += 1;
      send.status = 'retrying';
    }
  }

  /** No more attempts by themselves: the person may try again or discard it. */
  failed(key) {
    const send = this.byKey.get(key);
    if (send) send.status = 'failed';
  }

  /** The person asked to try a failed send again. */
  again(key) {
    const send = this.byKey.get(key);
    if (send) {
      send.attempts = 0;
      send.status = 'sending';
    }
  }

  /** Sent, refused or discarded: no longer on its way. */
  drop(key) {
    this.byKey.delete(key);
  }
}
