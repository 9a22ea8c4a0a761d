-- KEYS: members
return { 'OK', redis.call('EXISTS', KEYS[1]) }
