-- KEYS: the chat's members
return { 'OK', redis.call('EXISTS', KEYS[1]) }
