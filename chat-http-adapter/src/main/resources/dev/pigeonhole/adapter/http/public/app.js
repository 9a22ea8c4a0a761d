// The page's entry: each control wired to the flow it starts, and a session this tab already
// had picked up again. The flows live in modules of their own: session.js (sign-in and out),
// sync.js (keeping up to date), chat.js (the open chat), sending.js and membership.js. What the
// page knows changes only in state.js and its parts, and the DOM only through ui.js and its parts,
// except for invitations.js and reach.js, which keep their own small state and lists to themselves.

import { backToList, loadOlder, openChat } from './chat.js';
import { onInvitationAction } from './invitations.js';
import { askToLeave, createChat, invite, joinChat, onLeaveDialogClosed, showNewChat } from './membership.js';
import { onBlockedAction, onPolicyChange } from './reach.js';
import { onComposerKey, onPendingAction, submitMessage } from './sending.js';
import { endSession, resumeSession, showConnection, signIn, signInWithHandedToken } from './session.js';
import { follow, whenBrowserOnline, whenTabShown } from './sync.js';
import * as ui from './ui.js';

const { els } = ui;

els.signinForm.addEventListener('submit', async (event) => {
  const s = await signIn(event);
  if (s) follow(s);
});
els.signout.addEventListener('click', () => endSession(null));
els.newChatButton.addEventListener('click', showNewChat);
els.newChatForm.addEventListener('submit', createChat);
els.joinForm.addEventListener('submit', joinChat);
els.inviteForm.addEventListener('submit', invite);
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

document.getElementById('invitation-list').addEventListener('click', onInvitationAction);
document.getElementById('add-policy').addEventListener('change', onPolicyChange);
document.getElementById('blocked-list').addEventListener('click', onBlockedAction);

els.chatList.addEventListener('click', (event) => {
  const item = event.target.closest('li[data-chat-id]');
  if (item) openChat(item.dataset.chatId, { focus: true });
});

document.addEventListener('visibilitychange', whenTabShown);
window.addEventListener('online', whenBrowserOnline);
window.addEventListener('offline', showConnection);

// A token handed in the address wins over one this tab kept: it is the sign-in just made, and
// when the server refuses it the sign-in form says why rather than an older session taking over.
const handed = location.hash.startsWith('#token=');
const resumed = handed ? await signInWithHandedToken() : resumeSession();
if (resumed) {
  follow(resumed);
} else if (!handed) {
  ui.showSignIn();
}
