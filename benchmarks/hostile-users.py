"""Replays what hostile users tried against a running server and prints what each got.

Usage: python3 benchmarks/hostile-users.py [PORT]   (default 8080; a server started with
./pigeonhole serve, any store). Standard library only. Each row names one attack: strangers who
add a victim to their chats, a stalker watching presence, one name in three spellings, throwaway
accounts filling a mailbox, trickled headers, too many sockets from one address, a broken chunked
body, altered tokens, probing a private chat's existence, control characters in a body. Every
user it makes has a fresh random name, so it can run again against the same server.
"""
import http.client, json, socket, sys, time, uuid

HOST, PORT = '127.0.0.1', int(sys.argv[1]) if len(sys.argv) > 1 else 8080

def call(method, path, token=None, body=None):
    c = http.client.HTTPConnection(HOST, PORT, timeout=30)
    h = {'Content-Type': 'application/json'}
    if token: h['Authorization'] = 'Bearer ' + token
    c.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
    r = c.getresponse(); data = r.read(); c.close()
    return r.status, data

def sign_in(name):
    return json.loads(call('POST', '/api/session', body={'user': name})[1])['token']

tag = uuid.uuid4().hex[:6]
def user(role): return f'{role}-{tag}-{uuid.uuid4().hex[:6]}'

# 1. strangers add a victim to chats of many members
victim = user('victim'); vt = sign_in(victim)
t0 = time.time(); statuses = {}
for s in range(5):
    st = sign_in(user('stranger'))
    for c in range(10):
        others = [victim] + [user('m') for _ in range(200)]
        code, _ = call('POST', '/api/chats', st, {'members': others, 'message': 'hi'})
        statuses[code] = statuses.get(code, 0) + 1
code, chats = call('GET', '/api/chats', vt)
code2, inv = call('GET', '/api/invitations', vt)
print(f"row 1: 5 strangers x 10 chats of 201 members in {time.time()-t0:.1f}s, answers {statuses}; "
      f"victim's /api/chats {len(chats)} bytes ({len(json.loads(chats))} chats), invitations {len(json.loads(inv)['invitations'])} ({len(inv)} bytes)")

# 2. stalker presence
stalker = user('stalker'); stt = sign_in(stalker)
call('POST', '/api/chats', stt, {'members': [victim], 'message': 'hello'})
call('GET', '/api/chats', vt)
code, online = call('GET', '/api/presence?within=PT10S', stt)
print(f"row 2: stalker's presence within PT10S lists the victim: {victim in json.loads(online)['online']}")

# 3. Casey
a = json.loads(call('POST', '/api/session', body={'user': 'Casey' + tag})[1])['user']
b = json.loads(call('POST', '/api/session', body={'user': 'CASEY' + tag})[1])['user']
c = json.loads(call('POST', '/api/session', body={'user': 'cAsey' + tag})[1])['user']
print(f"row 3: Casey, CASEY, cAsey sign in as {sorted({a, b, c})}")

# 4. throwaway accounts flood a mailbox
target = user('target'); tt = sign_in(target)
friend = user('friend'); ft = sign_in(friend)
code, body = call('POST', '/api/chats', ft, {'members': [target], 'message': 'hi'})
chat = json.loads(body)['chatId']
call('POST', f'/api/invitations/{chat}/accept', tt)
t0 = time.time(); results = {}; accounts = 0
while results.get(429, 0) < 50 and accounts < 400:
    at = sign_in(user('throwaway')); accounts += 1
    for i in range(30):
        code, _ = call('POST', f'/api/users/{target}/mailbox', at, {'message': f'spam {i}'})
        results[code] = results.get(code, 0) + 1
        if code == 429 and i == 0: break
code, _ = call('POST', f'/api/users/{target}/mailbox', ft, {'message': 'lunch?'})
print(f"row 4: {accounts} throwaway accounts, answers {results} in {time.time()-t0:.1f}s; a friend's DM then: {code}")

# 5. trickling headers
socks = []
for i in range(100):
    s = socket.create_connection((HOST, PORT)); s.sendall(b'GET /health HTTP/1.1\r\n'); socks.append(s)
t0 = time.time(); alive = len(socks)
while time.time() - t0 < 20:
    for s in socks:
        try: s.sendall(b'X-Trickle: 1\r\n')
        except OSError: pass
    time.sleep(2)
open_now = 0
for s in socks:
    try:
        s.settimeout(0.2); d = s.recv(1)
        if d != b'': open_now += 1
    except socket.timeout: open_now += 1
    except OSError: pass
    s.close()
print(f"row 5: 100 connections trickling a header line every 2 s: {open_now} still open after 20 s")

# 5b. too many connections from one address: those held stay silent, those refused are closed
socks = []
for _ in range(120):
    socks.append(socket.create_connection((HOST, PORT))); time.sleep(0.01)
time.sleep(1.5); held = 0
for s in socks:
    s.setblocking(False)
    try:
        if s.recv(1) != b'': held += 1
    except BlockingIOError: held += 1
    except OSError: pass
    s.close()
print(f"row 5b: 120 idle connections from one address: {held} held, {120 - held} closed at once")

# 6. chunked overflow
s = socket.create_connection((HOST, PORT))
s.sendall(b'POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n')
s.settimeout(5); print("row 6: overflowing chunk size:", s.recv(200).split(b'\r\n')[0].decode()); s.close()

# 7. altered tokens
tok = sign_in(user('tok')); accepted = 0
def ins(t, seg, x):
    p = t.split('.'); m = len(p[seg]) // 2; p[seg] = p[seg][:m] + x + p[seg][m:]; return '.'.join(p)
alts = [tok+'!', tok+'~', tok+'=', tok+'==', tok+'.', tok+'.e30', tok+'+', tok+'/', ins(tok,2,'!'), ins(tok,2,'='), ins(tok,1,'~'), ins(tok,0,'!'), '.'+tok]
for t in alts:
    if call('GET', '/api/chats', t)[0] == 200: accepted += 1
print(f"row 7: altered tokens accepted: {accepted} of {len(alts)} (unaltered: {call('GET', '/api/chats', tok)[0]})")

# 8. existence
owner = sign_in(user('owner')); name = 'secret-' + tag
call('POST', '/api/chats', owner, {'members': [], 'message': 'hush', 'chatId': name})
m = sign_in(user('nosy'))
print(f"row 8: non-member reads an existing private chat: {call('GET', f'/api/chats/{name}/messages', m)[0]}, a missing one: {call('GET', '/api/chats/missing-'+tag+'/messages', m)[0]}")

# 9. control characters
code, body = call('POST', f'/api/chats/{name}/messages', owner, {'message': 'a\u0007b'})
print(f"row 9: a body with U+0007: {code} {json.loads(body).get('detail')}")
