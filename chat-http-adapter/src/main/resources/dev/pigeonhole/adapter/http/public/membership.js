// Membership: opening a chat with others, joining an open one by its id, adding someone to the
// chat on screen, and leaving it.
// Each checks what it can before asking the server, so a person hears about a typo in words
// rather than as a refusal, and lands in the chat (or back at the list) when it is done.

import { chatLabel, closeChat, openChat, refreshChats } from './chat.js';
import { api, current, report } from './session.js';
import { isValidId } from './state.js';
import * as ui from './ui.js';

const { els } = ui;

function idsFrom(text) {
  return [...new Set(text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean))];
}

export function showNewChat() {
  ui.setFieldError(els.newChatError, '');
  ui.setFieldError(els.joinError, '');
  current.state.setOpenChat(null);
  history.replaceState(null, '', location.pathname + location.search);
  ui.showMain('new');
  ui.renderChatList(current.state);
  els.newChatMembers.focus();
}

export async function createChat(event) {
  event.preventDefault();
  const s = current;
  if (!s) return;
  const members = idsFrom(els.newChatMembers.value).filter((m) => m !== s.user);
  const chatId = els.newChatId.value.trim();
  const message = els.newChatMessage.value;
  const bad = members.find((m) => !isValidId(m));
  let problem = '';
  let field = null;
  if (bad) [problem, field] = [`"${bad}" is not a valid name: use letters, digits, dots, dashes or underscores.`, els.newChatMembers];
  else if (chatId && !isValidId(chatId)) [problem, field] = ['A chat id uses 1 to 64 letters, digits, dots, dashes or underscores.', els.newChatId];
  else if (!message.trim()) [problem, field] = ['Write a first message: a chat starts with one.', els.newChatMessage];
  ui.setFieldError(els.newChatError, problem);
  if (field) {
    field.focus();
    return;
  }
  ui.setBusy(els.newChatSubmit, true);
  try {
    const open = els.newChatOpen.checked;
    const created = await api.createChat({ members, message, chatId: chatId || undefined, open });
    if (current !== s) return;
    els.newChatForm.reset();
    s.state.history.add(created.chatId, [created.message]);
    await refreshChats(s);
    await openChat(created.chatId, { focus: true });
  } catch (error) {
    ui.setFieldError(els.newChatError, error.detail ?? error.message);
  } finally {
    ui.setBusy(els.newChatSubmit, false);
  }
}

export async function joinChat(event) {
  event.preventDefault();
  const s = current;
  if (!s) return;
  const chatId = els.joinId.value.trim();
  if (!isValidId(chatId)) {
    ui.setFieldError(els.joinError, chatId ? 'A chat id uses 1 to 64 letters, digits, dots, dashes or underscores.' : 'Enter the id of the chat to join.');
    els.joinId.focus();
    return;
  }
  ui.setFieldError(els.joinError, '');
  ui.setBusy(els.joinSubmit, true);
  try {
    await api.join(chatId);
    if (current !== s) return;
    els.joinForm.reset();
    await refreshChats(s);
    await openChat(chatId, { focus: true });
  } catch (error) {
    ui.setFieldError(els.joinError, error.detail ?? error.message);
  } finally {
    ui.setBusy(els.joinSubmit, false);
  }
}

/** Adds someone to the chat on screen; only a member may, which anyone looking at it is. */
export async function invite(event) {
  event.preventDefault();
  const s = current;
  const chatId = s?.state.openChatId;
  if (!chatId) return;
  const user = els.inviteUser.value.trim();
  let problem = '';
  if (!user) problem = 'Enter the name of the person to add.';
  else if (!isValidId(user)) problem = `"${user}" is not a valid name: use letters, digits, dots, dashes or underscores.`;
  else if (s.state.chats.get(chatId)?.members.includes(user)) problem = `${user} is in this chat already.`;
  ui.setFieldError(els.inviteError, problem);
  if (problem) {
    els.inviteUser.focus();
    return;
  }
  ui.setBusy(els.inviteSubmit, true);
  try {
    await api.invite(chatId, user);
    if (current !== s) return;
    els.inviteForm.reset();
    await refreshChats(s);
    ui.toast(`${user} is in ${chatLabel(chatId)} now, and reads what is sent from here on.`, 'info');
  } catch (error) {
    ui.setFieldError(els.inviteError, error.detail ?? error.message);
  } finally {
    ui.setBusy(els.inviteSubmit, false);
  }
}

/** Leaving asks first, and says what leaving will mean for this chat. */
export function askToLeave() {
  const s = current;
  const chat = s?.state.chats.get(s.state.openChatId);
  if (!chat) return;
  const others = chat.members.filter((m) => m !== s.user).length;
  els.leaveDialogText.textContent = others === 0
    ? 'You are the last one in it, so the chat and its messages will be gone for good.'
    : chat.open
      ? 'You will stop getting its messages. You can join again with its id.'
      : 'You will stop getting its messages. It is private: a member would have to add you again.';
  els.leaveDialog.returnValue = '';
  els.leaveDialog.showModal();
}

export async function onLeaveDialogClosed() {
  const s = current;
  const chatId = s?.state.openChatId;
  if (!chatId) return;
  if (els.leaveDialog.returnValue !== 'leave') {
    els.leaveButton.focus();
    return;
  }
  try {
    await api.leave(chatId, s.user);
    if (current !== s) return;
    s.state.forget(chatId);
    if (s.state.openChatId === chatId) closeChat(s);
    ui.renderChatList(s.state);
    ui.toast(`You left ${chatLabel(chatId)}.`, 'info');
    els.newChatButton.focus();
  } catch (error) {
    report(error);
    els.leaveButton.focus();
  }
}
