"""What `msal token` (and `msal kube get-token`, `msal git-credential get`) does, with MSAL Python: read the
cache file, find the account, get a token for SCOPE (User.Read by default) silently (from the cache), print
it. msal-bench times the whole process. Discovery persists in an `http_cache` beside the cache file, as MSAL
Python's documentation shows and Azure CLI does, just as `msal` keeps its authority metadata file.

Usage: python msal_python_token.py CACHE_FILE AUTHORITY CLIENT_ID [SCOPE]   (REQUESTS_CA_BUNDLE trusts the emulator)
"""
import atexit
import pickle
import sys

import msal

path, authority, client_id = sys.argv[1:4]
scope = sys.argv[4] if len(sys.argv) > 4 else "User.Read"
http_cache_path = path + ".http_cache"
try:
    with open(http_cache_path, "rb") as f:
        http_cache = pickle.load(f)
except (FileNotFoundError, pickle.UnpicklingError, EOFError):
    http_cache = {}


def save_http_cache():
    with open(http_cache_path, "wb") as f:
        pickle.dump(http_cache, f)


atexit.register(save_http_cache)
cache = msal.SerializableTokenCache()
with open(path) as f:
    cache.deserialize(f.read())
app = msal.PublicClientApplication(client_id, authority=authority, token_cache=cache, instance_discovery=False,
                                  http_cache=http_cache)
account = app.get_accounts()[0]
result = app.acquire_token_silent([scope], account=account)
if not result or "access_token" not in result:
    sys.exit("no token from the cache: %r" % (result,))
print(result["access_token"])
