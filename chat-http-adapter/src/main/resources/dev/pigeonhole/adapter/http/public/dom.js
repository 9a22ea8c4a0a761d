// The page's elements, found once by id, and the one way new ones are made. Everything that
// touches the DOM goes through the parts of ui.js. User content only ever goes in through
// textContent or attributes set one by one, so a message can never become markup.

const $ = (id) => document.getElementById(id);

export const els = {
  signinView: $('signin-view'),
  signinForm: $('signin-form'),
  signinName: $('signin-name'),
  signinButton: $('signin-button'),
  signinError: $('signin-error'),
  app: $('app-view'),
  meName: $('me-name'),
  signout: $('signout-button'),
  connection: $('connection-state'),
  chatList: $('chat-list'),
  chatListEmpty: $('chat-list-empty'),
  newChatButton: $('new-chat-button'),
  mailboxList: $('mailbox-list'),
  mailboxEmpty: $('mailbox-empty'),
  onlineList: $('online-list'),
  onlineCount: $('online-count'),
  main: $('main'),
  welcomeView: $('welcome-view'),
  newChatView: $('new-chat-view'),
  newChatForm: $('new-chat-form'),
  newChatMembers: $('new-chat-members'),
  newChatId: $('new-chat-id'),
  newChatOpen: $('new-chat-open'),
  newChatMessage: $('new-chat-message'),
  newChatSubmit: $('new-chat-submit'),
  newChatError: $('new-chat-error'),
  joinForm: $('join-chat-form'),
  joinId: $('join-chat-id'),
  joinSubmit: $('join-chat-submit'),
  joinError: $('join-chat-error'),
  chatView: $('chat-view'),
  chatTitle: $('chat-title'),
  chatMembers: $('chat-members'),
  chatAccess: $('chat-access'),
  inviteForm: $('invite-form'),
  inviteUser: $('invite-user'),
  inviteSubmit: $('invite-submit'),
  inviteError: $('invite-error'),
  leaveButton: $('leave-chat-button'),
  scroller: $('scroller'),
  loadOlder: $('load-older-button'),
  historyNote: $('history-note'),
  messageList: $('message-list'),
  jumpLatest: $('jump-latest'),
  composer: $('composer'),
  messageInput: $('message-input'),
  sendButton: $('send-button'),
  leaveDialog: $('leave-dialog'),
  leaveDialogText: $('leave-dialog-text'),
  announcer: $('announcer'),
  toasts: $('toasts'),
};

export function el(tag, { className, text, attrs } = {}, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

export function setBusy(button, busy) {
  button.disabled = busy;
  button.setAttribute('aria-busy', String(busy));
}

export function setFieldError(node, text) {
  node.textContent = text ?? '';
}
