// How the page words names and times: a chat's title and members line, and when a message was sent.

/**
 * Ids the server made up (22 random characters, or a number in the book's layout) say nothing,
 * so those chats are called after the people in them.
 */
export function isMadeUp(chatId) {
  return /^\d+$/.test(chatId) || /^[0-9A-Za-z]{22}$/.test(chatId);
}

export function chatTitle(chat, me) {
  if (!isMadeUp(chat.chatId)) return chat.chatId;
  const others = chat.members.filter((m) => m !== me);
  if (others.length === 0) return 'Just you';
  return others.length <= 3 ? others.join(', ') : `${others.slice(0, 3).join(', ')} +${others.length - 3}`;
}

export function membersLine(chat, me, max) {
  const others = chat.members.filter((m) => m !== me);
  if (others.length === 0) return 'Only you';
  const shown = others.slice(0, max).join(', ');
  return others.length > max ? `You, ${shown} and ${others.length - max} more` : `You, ${shown}`;
}

export function hue(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)) % 360;
  return h;
}

const timeOnly = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
export const fullTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' });

export function shortTime(date) {
  const now = new Date();
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay ? timeOnly.format(date) : dayAndTime.format(date);
}
