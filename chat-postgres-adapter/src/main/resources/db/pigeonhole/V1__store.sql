-- Everything Pigeonhole keeps in PostgreSQL. Times are epoch milliseconds (the ports promise
-- milliseconds, and RateLimit.take counts in them), except a lease's expiry, which only the
-- database's own clock ever compares.

-- Group chats: one row per chat, locked (SELECT ... FOR UPDATE) by every change to the chat, so
-- the Chat aggregate is applied to one chat by one transaction at a time.
create table chats (
    id                 text primary key,
    access             text   not null,
    last_id            bigint not null,
    first_available_id bigint not null
);

create table chat_members (
    chat_id    text references chats on delete cascade,
    user_id    text,
    cursor_id  bigint not null,
    join_point bigint not null,
    primary key (chat_id, user_id)
);
-- A user's chats, for pending and the chat list.
create index chat_members_by_user on chat_members (user_id, chat_id);

create table chat_messages (
    chat_id        text references chats on delete cascade,
    id             bigint,
    sent_at_millis bigint not null,
    sender         text   not null,
    body           text   not null,
    primary key (chat_id, id)
);

-- Sends remembered under an idempotency key: the message's id, time and a digest of its body,
-- never a copy of the message.
create table keyed_sends (
    chat_id          text references chats on delete cascade,
    scoped_key       text,
    message_id       bigint not null,
    sent_at_millis   bigint not null,
    body_digest      text   not null,
    closes_at_millis bigint not null,
    primary key (chat_id, scoped_key)
);
-- The soonest to close are forgotten first.
create index keyed_sends_by_closing on keyed_sends (chat_id, closes_at_millis, scoped_key);

-- Each sender's send bucket in a chat, kept as the instant it is full again (RateLimit).
create table send_buckets (
    chat_id        text references chats on delete cascade,
    sender         text,
    full_at_millis bigint not null,
    primary key (chat_id, sender)
);

-- Mailboxes: the counter outlives an emptied mailbox, and what was acknowledged is a prefix of
-- the ids, so a mailbox's depth is last_id - acknowledged without counting its rows.
create table mailboxes (
    owner        text primary key,
    last_id      bigint not null,
    acknowledged bigint not null
);

create table mailbox_messages (
    owner          text references mailboxes on delete cascade,
    id             bigint,
    sent_at_millis bigint not null,
    sender         text   not null,
    body           text   not null,
    primary key (owner, id)
);

-- Presence: the last sighting, and the one before it, which a touch answers with.
create table presence (
    user_id         text primary key,
    seen_at_millis  bigint not null,
    previous_millis bigint
);
create index presence_by_sighting on presence (seen_at_millis);

-- Leases: the owner token of the current grant and when the database's clock ends it. Fencing
-- tokens come from one sequence, so they keep growing across expiries and deleted rows.
create table leases (
    name          text primary key,
    owner         text        not null,
    fencing_token bigint      not null,
    expires_at    timestamptz not null
);
create sequence lease_fencing_tokens;

-- Each user's buckets for the rarer writes (create, invite, deliver), as the instant each is
-- full again; a take forgets the user's buckets that are full again.
create table quota_buckets (
    user_id        text,
    write_kind     text,
    full_at_millis bigint not null,
    primary key (user_id, write_kind)
);
