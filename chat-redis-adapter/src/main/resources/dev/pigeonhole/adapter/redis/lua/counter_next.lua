-- KEYS: counter
return { 'OK', redis.call('INCR', KEYS[1]) }
