package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.http.ServerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import static org.awaitility.Awaitility.await;

/**
 * Many users in many chats, made through the HTTP API, and their live sockets. Every user
 * makes one signed-in request before any socket opens, so all of them are online already and
 * connecting announces nobody: a thousand sockets opening would otherwise push half a million
 * presence events, which is another test's subject.
 */
final class ChatCrowd implements AutoCloseable {

    /** One chat: its id and its members, creator first, with their tokens in the same order. */
    record Chat(String id, List<String> users, List<String> tokens) {

        String creatorToken() {
            return tokens.getFirst();
        }
    }

    /** How many requests or upgrades are in flight at once while setting up. */
    private static final int IN_FLIGHT = 32;
    private static final Duration SETUP_PATIENCE = Duration.ofSeconds(60);

    private final List<Chat> chats;
    private final List<LiveClient> clients = new ArrayList<>();
    private final Map<LiveClient, Chat> chatOf = new IdentityHashMap<>();
    private final Map<Chat, LiveClient> creators = new IdentityHashMap<>();

    private ChatCrowd(List<Chat> chats) {
        this.chats = chats;
    }

    /** {@code chatCount} chats of {@code usersPerChat} members each, every chat opened with the message "hello". */
    static ChatCrowd create(ApiClient api, int chatCount, int usersPerChat) throws InterruptedException {
        List<Chat> chats = new ArrayList<>();
        for (int c = 0; c < chatCount; c++) {
            List<String> users = new ArrayList<>();
            for (int u = 0; u < usersPerChat; u++) {
                users.add(ApiClient.randomUser(u == 0 ? "creator" : "member"));
            }
            List<String> tokens = inParallel(users, user -> {
                String token = api.signIn(user);
                ApiClient.Response seen = api.get("/api/chats", token);
                if (seen.status() != 200) {
                    throw new AssertionError("GET /api/chats as " + user + " answered " + seen);
                }
                return token;
            });
            ApiClient.Response created = api.postJson("/api/chats", tokens.getFirst(),
                    Map.of("members", users.subList(1, users.size()), "message", "hello"));
            if (created.status() != 201) {
                throw new AssertionError("creating a chat of " + usersPerChat + " answered " + created);
            }
            chats.add(new Chat(created.json().get("chatId").stringValue(), List.copyOf(users), tokens));
        }
        return new ChatCrowd(chats);
    }

    List<Chat> chats() {
        return chats;
    }

    /**
     * Opens a socket for every member of every chat, and returns once the server counts them all
     * as live sessions (it counts one only once its subscriptions are in place) and every member
     * but the creator, whose own message is never pending for it, has received the opening
     * message.
     */
    void connectAll(RunningServer server) throws InterruptedException {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<?>> opened = new ArrayList<>();
        for (Chat chat : chats) {
            for (String token : chat.tokens()) {
                boolean creator = token.equals(chat.creatorToken());
                inFlight.acquire();
                opened.add(LiveClient.openSocket(server.port(), token)
                        .whenComplete((client, failure) -> inFlight.release())
                        .thenAccept(client -> {
                            synchronized (clients) {
                                clients.add(client);
                                chatOf.put(client, chat);
                                if (creator) {
                                    creators.put(chat, client);
                                }
                            }
                        }));
            }
        }
        awaitAll(opened);
        ApiClient api = ApiClient.onPort(server.port());
        int all = chats.stream().mapToInt(chat -> chat.users().size()).sum();
        await().atMost(SETUP_PATIENCE).until(() -> ServerMetrics.liveSessions(api) == all);
        for (Chat chat : chats) {
            for (LiveClient client : clientsOf(chat)) {
                if (client != creators.get(chat)) {
                    client.next(event -> event.get("type").stringValue().equals("message")
                            && event.get("message").get("message").stringValue().equals("hello"));
                }
            }
        }
    }

    /** The socket of the chat's creator. */
    LiveClient creatorOf(Chat chat) {
        synchronized (clients) {
            return creators.get(chat);
        }
    }

    List<LiveClient> clients() {
        synchronized (clients) {
            return List.copyOf(clients);
        }
    }

    List<LiveClient> clientsOf(Chat chat) {
        synchronized (clients) {
            return clients.stream().filter(client -> chatOf.get(client) == chat).toList();
        }
    }

    /** Drops every socket at once, as clients that go away do. */
    @Override
    public void close() {
        clients().forEach(LiveClient::close);
    }

    private static <T, R> List<R> inParallel(List<T> items, Function<T, R> work) throws InterruptedException {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<R>> results = new ArrayList<>();
            for (T item : items) {
                results.add(threads.submit(() -> {
                    inFlight.acquire();
                    try {
                        return work.apply(item);
                    } finally {
                        inFlight.release();
                    }
                }));
            }
            List<R> done = new ArrayList<>();
            for (Future<R> result : results) {
                try {
                    done.add(result.get(SETUP_PATIENCE.toMillis(), TimeUnit.MILLISECONDS));
                } catch (ExecutionException e) {
                    throw new AssertionError("setting up the crowd failed", e.getCause());
                } catch (TimeoutException e) {
                    throw new AssertionError("setting up the crowd took over " + SETUP_PATIENCE, e);
                }
            }
            return done;
        }
    }

    private static void awaitAll(List<CompletableFuture<?>> futures) {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                    .get(SETUP_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while connecting", e);
        } catch (ExecutionException e) {
            throw new AssertionError("a live socket did not open", e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the live sockets did not all open within " + SETUP_PATIENCE, e);
        }
    }
}
