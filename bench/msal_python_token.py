"""What `msal token` does, with MSAL Python: read the cache file, find the account, get a token
silently (from the cache), print it. msal-bench times the whole process.

Usage: python msal_python_token.py CACHE_FILE AUTHORITY CLIENT_ID   (REQUESTS_CA_BUNDLE trusts the emulator)
"""
import sys

import msal

path, authority, client_id = sys.argv[1:4]
cache = msal.SerializableTokenCache()
with open(path) as f:
    cache.deserialize(f.read())
app = msal.PublicClientApplication(client_id, authority=authority, token_cache=cache, instance_discovery=False)
account = app.get_accounts()[0]
result = app.acquire_token_silent(["User.Read"], account=account)
if not result or "access_token" not in result:
    sys.exit("no token from the cache: %r" % (result,))
print(result["access_token"])
