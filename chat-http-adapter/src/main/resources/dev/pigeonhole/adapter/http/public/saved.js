// What this tab keeps in sessionStorage: the session, so a reload stays signed in, and what the
// page has shown of each chat and of the mailbox. The server trims what every member has read and
// lets go of what the mailbox acknowledged, so the page is often the only place those still exist.

const SESSION_KEY = 'pigeonhole.session';
export const HISTORY_PREFIX = 'pigeonhole.history.';
export const MAILBOX_PREFIX = 'pigeonhole.mailbox.';
// Some of the past across reloads of the tab, but not without bound.
export const KEPT_PER_CHAT = 200;

export const savedSession = {
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
  /** Sign-out: the session goes, and with it everything kept for the user. */
  clear(user) {
    sessionStorage.removeItem(SESSION_KEY);
    if (user) {
      sessionStorage.removeItem(HISTORY_PREFIX + user);
      sessionStorage.removeItem(MAILBOX_PREFIX + user);
    }
  },
};

/** What was kept under `key`, or `fallback` when nothing was or it no longer parses. */
export function readKept(key, fallback) {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? 'null') ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * Writes `write()`'s value under `key` a second after the first change asks for it, so a burst of
 * messages is one write; `now()` writes at once. Once closed (sign-out) it writes nothing more.
 */
export function keeper(key, write) {
  let timer = 0;
  let closed = false;
  const now = () => {
    clearTimeout(timer);
    timer = 0;
    if (closed) return;
    try {
      sessionStorage.setItem(key, JSON.stringify(write()));
    } catch {
      // Storage full or disabled: the page still works, it just forgets on reload.
    }
  };
  return {
    soon() {
      if (!timer) timer = setTimeout(now, 1_000);
    },
    now,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
