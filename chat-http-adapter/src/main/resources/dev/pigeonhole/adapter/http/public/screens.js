// Which screen shows: sign-in or the signed-in page, and which panel fills its main area; and
// the connection indicator in the bar.

import { els } from './dom.js';

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
