// Everything that touches the DOM, as one namespace for the flows (`import * as ui`), drawn by
// the page's own parts: the elements and how new ones are made (dom.js), names and times
// (format.js), which screen shows (screens.js), the sidebar's lists (sidebar.js), the open chat's
// messages (messages.js), the sends in flight among them (pending.js), the chat view around them
// (chat-view.js), and what the page says by itself (toasts.js).

export { fitComposer, openChatView, setHistoryEdge, updateChatHeader } from './chat-view.js';
export { els, setBusy, setFieldError } from './dom.js';
export { clearMessages, insertMessages, isNearBottom, scrollToBottom } from './messages.js';
export { addPendingSend, removePendingSend, setPendingStatus } from './pending.js';
export { setConnection, showApp, showMain, showSignIn } from './screens.js';
export { renderChatList, renderMailbox, renderOnline } from './sidebar.js';
export { announce, toast } from './toasts.js';
