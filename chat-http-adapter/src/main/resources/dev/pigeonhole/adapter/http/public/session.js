// Signing in and out, and the session every flow works for. A session is replaced on sign-in, so
// an answer that arrives for an old one is dropped: after each await a flow checks that
// `current` is still the session it started for. The session record holds who is signed in,
// what the page knows (a ChatState, where every change is made) and what each flow keeps for it,
// all declared in newSession and nowhere else.

import { ApiError, createApi } from './api.js';
import { savedSession } from './saved.js';
import { ChatState, isValidId } from './state.js';
import * as ui from './ui.js';

const { els } = ui;

/** The signed-in user's session, or null while nobody is. */
export let current = null;

export const api = createApi({
  getToken: () => current?.token ?? null,
  onUnauthorized: () => {
    if (current) endSession('Your session has ended. Sign in again to carry on.');
  },
  onReachable: (reachable) => {
    if (!current) return;
    current.state.setReachable(reachable);
    showConnection();
  },
});

/** Tell the person what went wrong, unless it was the end of the session, which says so itself. */
export function report(error) {
  if (error instanceof ApiError && error.status === 401) return; // already back at sign-in
  ui.toast(error.detail ?? error.message ?? String(error), 'error');
}

/** The sign-in form. Returns the new session, or null when the name or the server said no. */
export async function signIn(event) {
  event.preventDefault();
  const name = els.signinName.value.trim();
  if (!isValidId(name)) {
    ui.setFieldError(els.signinError, name
      ? 'Use 1 to 64 letters, digits, dots, dashes or underscores, with no spaces.'
      : 'Enter a name to sign in.');
    els.signinName.setAttribute('aria-invalid', 'true');
    els.signinName.focus();
    return null;
  }
  els.signinName.removeAttribute('aria-invalid');
  ui.setFieldError(els.signinError, '');
  ui.setBusy(els.signinButton, true);
  try {
    const { user, token } = await api.signIn(name);
    savedSession.save(user, token);
    return startSession(user, token);
  } catch (error) {
    ui.setFieldError(els.signinError, error.detail ?? error.message);
    els.signinName.focus();
    return null;
  } finally {
    ui.setBusy(els.signinButton, false);
  }
}

/**
 * A token the page was handed in its address, `#token=<jwt>`: an identity provider's sign-in
 * sends people here with one. A fragment never reaches a server or a Referer, and it is wiped
 * from the address and the history at once; the server says whom the token names. Returns the
 * new session, or null when the server refused it (the sign-in form then says why).
 */
export async function signInWithHandedToken() {
  const token = decodeURIComponent(location.hash.slice('#token='.length));
  history.replaceState(null, '', location.pathname + location.search);
  try {
    const { user } = await api.caller(token);
    savedSession.save(user, token);
    return startSession(user, token);
  } catch (error) {
    ui.showSignIn();
    ui.setFieldError(els.signinError, error.detail ?? error.message);
    return null;
  }
}

/** The session this tab signed in earlier, if it kept one; null otherwise. */
export function resumeSession() {
  const saved = savedSession.load();
  return saved ? startSession(saved.user, saved.token) : null;
}

/**
 * Everything a session holds, by the flow that keeps it. Sealed: a flow that needs something more
 * declares it here, so one look shows all there is to a session.
 */
function newSession(user, token) {
  return Object.seal({
    user,
    token,
    state: new ChatState(user),
    // sync.js: the socket, the polls while it is down, the presence refresh, one catch-up at a time.
    live: null,
    pollTimer: 0,
    polls: 0,
    presenceTimer: 0,
    catchingUp: null,
    catchUpAgain: false,
    // chat.js: acknowledging what was shown, one POST /api/read at a time.
    ackTimer: 0,
    /** chatId → how far it was shown and is not yet acknowledged: the next POST /api/read. */
    unacked: new Map(),
    acknowledging: false,
    acknowledgeAgain: false,
    /** Where a hole was last pulled to be filled ("<chatId> <end of the run>"), so it is pulled once. */
    holeFilledFrom: null,
    // sending.js
    /** chatId → the promise that its latest send has settled. */
    sendQueues: new Map(),
    /** The invitations waiting for an answer: an Invitations that follow() gives each session. */
    invitations: null,
    /** Its add policy and blocks: a Reach that follow() gives each session. */
    reach: null,
  });
}

function startSession(user, token) {
  const s = newSession(user, token);
  current = s;
  ui.showApp(user);
  ui.setConnection('connecting');
  ui.renderChatList(s.state);
  ui.renderOnline(s.state);
  ui.renderMailbox(s.state);
  return s;
}

export function endSession(message) {
  const s = current;
  if (!s) return;
  current = null;
  s.live?.stop();
  clearTimeout(s.pollTimer);
  clearTimeout(s.presenceTimer);
  clearTimeout(s.ackTimer);
  s.state.close();
  savedSession.clear(s.user);
  history.replaceState(null, '', location.pathname + location.search);
  ui.showSignIn();
  if (message) ui.toast(message, 'info');
}

/** The connection indicator, from the socket, the last call and the browser's own idea of online. */
export function showConnection() {
  const s = current;
  if (!s) return;
  ui.setConnection(s.state.connection(navigator.onLine));
}
